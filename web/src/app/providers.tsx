import { createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { createQueryClient } from '../lib/query-client.ts';
import { ConfigGate } from './gates.tsx';

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'sm' });

export function AppProviders({ children }: { children: React.ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <Notifications position="top-right" />
          <ConfigGate>{children}</ConfigGate>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
