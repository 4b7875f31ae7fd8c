import { type CSSVariablesResolver, createTheme, darken, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { createQueryClient } from '../lib/query-client.ts';
import { ConfigGate } from './gates.tsx';

/**
 * Shade 8 of the primary colour for links and filled buttons: the default shade 6 reaches only
 * 3.5:1 on white, below the 4.5:1 WCAG AA asks for small text (the axe checks of every screen).
 * Transitions (modals, menus, dropdowns) are skipped for users whose system asks for reduced motion.
 */
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'sm',
  respectReducedMotion: true,
});

/**
 * Light (tinted) alerts and badges write in shade 9 of their colour; for the warm colours that is
 * still too pale on their own tint (orange 3.6:1, green below 4.5:1), so those texts are darkened for the light scheme.
 */
const resolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: Object.fromEntries(
    ['orange', 'yellow', 'lime', 'green', 'teal'].map((c) => [
      `--mantine-color-${c}-light-color`,
      darken(t.colors[c][9], 0.3),
    ]),
  ),
  dark: {},
});

export function AppProviders({ children }: { children: React.ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={resolver}>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider modalProps={{ closeButtonProps: { 'aria-label': 'Close' } }}>
          <Notifications position="top-right" />
          <ConfigGate>{children}</ConfigGate>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
