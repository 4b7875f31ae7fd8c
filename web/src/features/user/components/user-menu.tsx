import { roleLabel } from '@lp/domain/policy';
import { ActionIcon, Avatar, Menu, Text } from '@mantine/core';
import { useCustomer } from '../../../app/customer-context.tsx';
import { useConfig, useCurrentUser } from '../../../lib/app-context.tsx';
import { logout } from '../../auth/api/logout.ts';
import { userInitials } from '../user-initials.ts';

/** Initials, email, role label, manage-account link and Sign Out (spec 000 §2.2, §6). */
export function UserMenu() {
  const user = useCurrentUser();
  const config = useConfig();
  const { customer } = useCustomer();
  const label = roleLabel(user.roles, customer?.info ?? null, config.productName);
  const initials = userInitials(user.name, user.email);
  return (
    <Menu position="bottom-end" width={280} withinPortal>
      <Menu.Target>
        {/* The name starts with the visible initials (WCAG 2.5.3 label in name): "JR: User menu for …". */}
        <ActionIcon
          variant="subtle"
          size="lg"
          radius="xl"
          aria-label={`${initials}: User menu for ${user.name}`}
        >
          <Avatar color="blue" radius="xl" size={34}>
            {initials}
          </Avatar>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)">
            {user.name}
          </Text>
          <Text size="sm" c="var(--mantine-color-text)">
            {user.email}
          </Text>
          {label ? (
            <Text size="sm" c="var(--mantine-color-text)" data-testid="role-label">
              {label}
            </Text>
          ) : null}
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component="a" href={config.editprofileurl} target="_blank" rel="noopener noreferrer">
          Manage your vendor account
        </Menu.Item>
        <Menu.Item onClick={() => void logout()}>Sign Out</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** Documentation and Get support: external links (spec 000 §2.2). */
export function HelpMenu() {
  const config = useConfig();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" size="lg" radius="xl" aria-label="Help">
          ?
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component="a" href={config.documentationUrl} target="_blank" rel="noopener noreferrer">
          Documentation
        </Menu.Item>
        <Menu.Item component="a" href={config.supportRequesturl} target="_blank" rel="noopener noreferrer">
          Get support
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
