import type { Notice } from '@lp/contract/notices/schemas';
import { List, Text } from '@mantine/core';

/** The notices as lines, newest first, each with the day it was found. */
export function NoticeList({ notices }: { notices: Notice[] }) {
  if (notices.length === 0) return <Text size="sm">No notices in the last 30 days.</Text>;
  return (
    <List size="sm" spacing={4} data-testid="notice-list">
      {notices.map((n) => (
        <List.Item key={n.id}>
          <Text size="sm" span>
            {n.text}
          </Text>{' '}
          <Text size="xs" span>
            (found {n.foundOn})
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
