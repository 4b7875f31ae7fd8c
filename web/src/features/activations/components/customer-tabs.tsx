import { messages } from '@lp/contract/common/errors';
import { Alert, Button, Group, Loader, Tabs, Text } from '@mantine/core';
import type { CustomerTabsState } from '../use-customer-tabs.ts';
import { EntitlementTables } from './entitlement-tables.tsx';

/**
 * One tab per active customer, labelled by customer number (spec 002 §2). A tab may hold no second button (nested
 * controls): keyboard and screen-reader users close a tab with its panel's 'Close tab {customer}' button, the
 * pointer also with the tab's × mark. Closing is offered only while more than one tab is open.
 */
export function CustomerTabs({ state, busy }: { state: CustomerTabsState; busy: boolean }) {
  const { tabs } = state;
  const closable = tabs.length > 1;
  return (
    <Tabs value={state.active} onChange={state.setActive} keepMounted={false}>
      <Tabs.List>
        {tabs.map((t) => (
          <Tabs.Tab
            key={t.customerNumber}
            value={t.customerNumber}
            rightSection={
              closable ? (
                <Text
                  component="span"
                  aria-hidden
                  c="gray.7"
                  onClick={(e) => {
                    e.stopPropagation();
                    state.close(t.customerNumber);
                  }}
                >
                  ×
                </Text>
              ) : null
            }
          >
            {t.customerNumber}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {tabs.map((t, i) => {
        const data = state.dataOf(t.customerNumber);
        return (
          <Tabs.Panel key={t.customerNumber} value={t.customerNumber} pt="md">
            {closable ? (
              <Group justify="flex-end">
                <Button
                  size="xs"
                  variant="subtle"
                  disabled={busy}
                  onClick={() => state.close(t.customerNumber)}
                >
                  Close tab {t.customerNumber}
                </Button>
              </Group>
            ) : null}
            {state.blocked[i] ? (
              <Alert color="red">{messages.exportDenied}</Alert>
            ) : data ? (
              <EntitlementTables
                customerNumber={t.customerNumber}
                data={data}
                selection={state.selectionOf(t.customerNumber)}
                onSelectionChange={(next) => state.select(t.customerNumber, next)}
                disabled={busy}
              />
            ) : state.rows[i]?.isError ? null : (
              <Group gap="xs">
                <Loader size="sm" />
                <Text size="sm">Loading entitlements...</Text>
              </Group>
            )}
          </Tabs.Panel>
        );
      })}
    </Tabs>
  );
}
