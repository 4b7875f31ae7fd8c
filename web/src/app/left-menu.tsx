import { platformApi } from '@lp/contract/platform/api';
import { isVendorStaff } from '@lp/domain/policy';
import { Anchor, Box, Button, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { FeaturesDialog } from '../features/featureflags/features-dialog.tsx';
import { useFeatures } from '../features/featureflags/use-features.ts';
import { useConfig, useCurrentUser } from '../lib/app-context.tsx';
import { call } from '../lib/call.ts';
import { useCustomer } from './customer-context.tsx';
import { menuGroups } from './navigation.ts';

/** Build info; spec 000 §8: a failure is logged as "Could not get build info" and no text is shown. */
function useBuildInfo() {
  return useQuery({
    queryKey: ['build-info'],
    queryFn: async () => {
      try {
        return (await call(platformApi.buildInfo)).data;
      } catch (e) {
        console.warn('Could not get build info', e);
        return '';
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Spec 000 §2.3: developer settings, outside production and for vendor staff only. */
function DeveloperSettings() {
  const config = useConfig();
  const user = useCurrentUser();
  const { data } = useFeatures();
  const [opened, { open, close }] = useDisclosure(false);
  if (config.environment === 'prod' || !isVendorStaff(user.roles)) return null;
  return (
    <NavLink component="button" label="Developer Settings" defaultOpened childrenOffset={12} fw={600}>
      <Box px="sm" py={4}>
        <Button size="xs" variant="light" onClick={open} disabled={data.features.length === 0}>
          Features
        </Button>
      </Box>
      <FeaturesDialog opened={opened} onClose={close} features={data.features} enabled={data.enabled} />
    </NavLink>
  );
}

/** The left menu: every group expanded by default (spec 000 §2.3), footer with build info and privacy link. */
export function LeftMenu() {
  const { pathname } = useLocation();
  const user = useCurrentUser();
  const config = useConfig();
  const { customer, ready } = useCustomer();
  const features = useFeatures();
  const buildInfo = useBuildInfo();
  // The entries follow the selected account and the feature flags: until both are known the menu stays empty, so
  // that entries are not inserted under the ones already shown (a layout shift of 0.05 on every page, issue 21).
  const settled = (ready || !!customer) && !features.loading;
  const groups = settled
    ? menuGroups({ roles: user.roles, info: customer?.info ?? null, routeEnabled: features.routeEnabled })
    : [];
  const isActive = (to: string) => {
    const base = to.replace('/fromLeftMenu', '');
    return pathname === base || pathname.startsWith(`${base}/`) || pathname === to;
  };
  return (
    <Stack h="100%" gap={0} justify="space-between">
      <ScrollArea style={{ flex: 1 }}>
        <nav aria-label="Main menu">
          {groups.map((group) => (
            <NavLink
              key={group.label}
              component="button"
              label={group.label}
              defaultOpened
              childrenOffset={12}
              fw={600}
            >
              {group.entries.map((entry) => (
                <NavLink
                  key={entry.to}
                  component={Link}
                  to={entry.to}
                  label={entry.label}
                  active={isActive(entry.to)}
                  // Filled: the light variant's blue text on its tint is below 4.5:1.
                  variant="filled"
                  fw={400}
                />
              ))}
            </NavLink>
          ))}
          {settled ? <DeveloperSettings /> : null}
        </nav>
      </ScrollArea>
      <Stack gap={4} p="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        {buildInfo.data ? (
          <Text size="xs" c="gray.7" data-testid="build-info">
            {buildInfo.data}
          </Text>
        ) : null}
        <Anchor href={config.privacyUrl} target="_blank" rel="noopener noreferrer" size="xs">
          Privacy Notice
        </Anchor>
      </Stack>
    </Stack>
  );
}
