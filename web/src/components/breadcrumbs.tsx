import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text } from '@mantine/core';
import { Link } from 'react-router';

export interface Crumb {
  label: string;
  /** Null for the last crumb, which is plain text (spec 000 §2.4). */
  to: string | null;
}

/** A chain of labelled links; the last one is plain text. Renders nothing for an empty chain. */
export function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  if (crumbs.length === 0) return null;
  return (
    <nav aria-label="Breadcrumb">
      <MantineBreadcrumbs mb="sm" separator=">">
        {crumbs.map((c) =>
          c.to ? (
            <Anchor key={`${c.label}-${c.to}`} component={Link} to={c.to} size="sm">
              {c.label}
            </Anchor>
          ) : (
            <Text key={`${c.label}-last`} size="sm" aria-current="page">
              {c.label}
            </Text>
          ),
        )}
      </MantineBreadcrumbs>
    </nav>
  );
}
