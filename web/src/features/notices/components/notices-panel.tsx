import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Popover,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ACCOUNT_PARAM } from '../../../app/customer-context.tsx';
import { noticesQuery, saveNoticeChoices, saveNoticeTypes } from '../api/notices.ts';
import { type ChoicesSave, NoticeChoicesDialog } from './notice-choices-dialog.tsx';
import { NoticeList } from './notice-list.tsx';

/** The choices dialog for an account, saving the user's thresholds (and the account's types, for administrators). */
function ChoicesFor({ customerNumber, onClose }: { customerNumber: string; onClose: () => void }) {
  const read = useQuery(noticesQuery(customerNumber));
  const queryClient = useQueryClient();
  if (!read.data) return null;
  const data = read.data;
  const onSave = async ({ choices, disabledTypes }: ChoicesSave) => {
    await saveNoticeChoices(customerNumber, choices);
    if (disabledTypes) await saveNoticeTypes(customerNumber, disabledTypes);
    await queryClient.invalidateQueries({ queryKey: noticesQuery(customerNumber).queryKey });
  };
  return (
    <NoticeChoicesDialog
      opened
      customerNumber={customerNumber}
      choices={data.choices}
      disabledTypes={data.disabledTypes}
      canChangeTypes={data.canChangeTypes}
      onClose={onClose}
      onSave={onSave}
    />
  );
}

const ChooseButton = ({ onClick }: { onClick: () => void }) => (
  <Button size="compact-sm" variant="light" onClick={onClick}>
    Choose notices
  </Button>
);

/** Notices the panel shows before the user asks for all: the page's title and tables stay in the first screen. */
const PANEL_NOTICES_SHOWN = 3;

/**
 * The notices panel of /elastic, /ssl and /entitlementsFSA (issue 13 §2): the account's notices of the last 30
 * days that this user chose; nothing while there are none (the top bar's count and list stay). It shows the newest
 * few, with a link to all of them and back (issue 21: 22 notices pushed the page below the fold at 1366×768).
 */
export function NoticesPanel({ customerNumber }: { customerNumber: string }) {
  const read = useQuery(noticesQuery(customerNumber));
  const [choosing, setChoosing] = useState(false);
  const [showAll, setShowAll] = useState(false);
  if (read.isError) return <Alert color="red">{read.error.message}</Alert>;
  if (!read.data?.notices.length) return null;
  const { notices } = read.data;
  const more = notices.length > PANEL_NOTICES_SHOWN;
  return (
    <Card
      withBorder
      component="section"
      aria-labelledby="notices-title"
      mb="md"
      py="xs"
      data-testid="notices-panel"
    >
      <Group justify="space-between" mb={4}>
        <Title order={2} size="h5" id="notices-title">
          Notices
        </Title>
        <ChooseButton onClick={() => setChoosing(true)} />
      </Group>
      <NoticeList notices={showAll ? notices : notices.slice(0, PANEL_NOTICES_SHOWN)} />
      {more ? (
        <Anchor
          component="button"
          type="button"
          size="sm"
          mt={4}
          aria-expanded={showAll}
          onClick={() => setShowAll((all) => !all)}
        >
          {showAll ? 'Show fewer notices' : `Show all ${notices.length} notices`}
        </Anchor>
      ) : null}
      {choosing ? <ChoicesFor customerNumber={customerNumber} onClose={() => setChoosing(false)} /> : null}
    </Card>
  );
}

/** The link of the notice e-mails (List-Unsubscribe, decision 060) opens the choices: `?account=…&notices=choose`. */
const CHOOSE_PARAM = 'notices';

/** The top bar's count of the selected account's notices, opening the list and the choices. */
export function NoticesButton({ customerNumber }: { customerNumber: string }) {
  const read = useQuery(noticesQuery(customerNumber));
  const [search, setSearch] = useSearchParams();
  const [opened, setOpened] = useState(false);
  // Only for the account the link names: while another one is still selected, its choices are not the ones asked for.
  const [choosing, setChoosing] = useState(
    () => search.get(CHOOSE_PARAM) === 'choose' && search.get(ACCOUNT_PARAM) === customerNumber,
  );
  const closeChoices = () => {
    setChoosing(false);
    if (search.has(CHOOSE_PARAM))
      setSearch(
        (s) => {
          s.delete(CHOOSE_PARAM);
          return s;
        },
        { replace: true },
      );
  };
  const count = read.data?.notices.length ?? 0;
  return (
    <>
      <Popover width={420} position="bottom-end" shadow="md" opened={opened} onChange={setOpened}>
        <Popover.Target>
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => setOpened((o) => !o)}
            rightSection={
              <Badge size="sm" color={count ? 'red.9' : 'gray.7'} data-testid="notices-count">
                {count}
              </Badge>
            }
          >
            {/* Named by what it shows, "Notices" and the count (WCAG 2.5.3 label in name); narrow screens show
                only the count, and the word stays for screen readers. */}
            <Text size="sm" visibleFrom="md">
              Notices
            </Text>
            <VisuallyHidden hiddenFrom="md">Notices</VisuallyHidden>
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs">
            <Group justify="space-between">
              <Text fw={500} size="sm">
                Notices for {customerNumber}
              </Text>
              <ChooseButton
                onClick={() => {
                  setOpened(false);
                  setChoosing(true);
                }}
              />
            </Group>
            {read.data ? <NoticeList notices={read.data.notices} /> : null}
          </Stack>
        </Popover.Dropdown>
      </Popover>
      {choosing ? <ChoicesFor customerNumber={customerNumber} onClose={closeChoices} /> : null}
    </>
  );
}
