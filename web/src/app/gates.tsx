import { signedInHintCookie } from '@lp/contract/auth/schemas';
import { messages } from '@lp/contract/common/errors';
import type { CurrentUser } from '@lp/contract/user/schemas';
import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Spinner } from '../components/spinner.tsx';
import { getClientConfig, getEnvironment } from '../features/auth/api/client-config.ts';
import { getUserDetails } from '../features/auth/api/user-details.ts';
import { ApiError, createApiClient, redirectToSignIn, setLoginUrl, signInUrl } from '../lib/api-client.ts';
import { ConfigContext, UserContext } from '../lib/app-context.tsx';
import { readCurrentUser, writeCurrentUser } from '../lib/local-store.ts';

const LOADING = 'Loading...';

/** Spec 000 §2.5: a full-screen "Loading..." until the configuration is known. */
export function ConfigGate({ children }: { children: React.ReactNode }) {
  const config = useQuery({
    queryKey: ['client-config'],
    queryFn: async () => {
      const [cfg, environment] = await Promise.all([getClientConfig(), getEnvironment()]);
      setLoginUrl(cfg.loginUrl);
      return { ...cfg, environment };
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (config.isPending) return <Spinner fullScreen text={LOADING} />;
  if (config.isError) {
    return (
      <Container size="sm" py="xl">
        <Stack>
          <Title order={1} size="h3">
            The portal is not reachable
          </Title>
          <Text>{config.error.message}</Text>
          <Button onClick={() => void config.refetch()} w="fit-content">
            Try again
          </Button>
        </Stack>
      </Container>
    );
  }
  return <ConfigContext.Provider value={config.data}>{children}</ConfigContext.Provider>;
}

/** After a failed sign-in the server returns to /?signin=failed: show it instead of bouncing to the IdP again. */
const signInFailed = () => new URLSearchParams(window.location.search).get('signin') === 'failed';
const quietClient = createApiClient({ onUnauthenticated: () => localStorage.clear() });
/** Without the server's hint cookie no session can exist: sign-in starts without a call that could only answer 401. */
const maySignedIn = () => document.cookie.split(/;\s*/).some((c) => c.startsWith(`${signedInHintCookie}=`));

/** Why the portal refused a sign-in the provider completed (decision 042); the server sends a fixed code. */
const refusals: Record<string, string> = {
  'email-unverified': messages.signInEmailUnverified,
  'identity-mismatch': messages.signInIdentityMismatch,
  disabled: messages.signInDisabled,
  'no-email': messages.signInNoEmail,
};

function SignInFailed() {
  const reason = new URLSearchParams(window.location.search).get('reason') ?? '';
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1} size="h3">
          Sign-in failed
        </Title>
        <Text>{refusals[reason] ?? 'The sign-in did not complete. Please try again.'}</Text>
        <Button component="a" href={signInUrl('/elastic')} w="fit-content">
          Sign in
        </Button>
      </Stack>
    </Container>
  );
}

/**
 * The route guard (spec 000 §2.1, §4.1): asks the server who is signed in and keeps the answer as
 * `currentUser` in local storage; without a user the browser goes to sign-in. A failed user-details
 * call other than 401 falls back to the cached user.
 */
export function UserGate({ children }: { children: React.ReactNode }) {
  const failed = signInFailed();
  const [hinted] = useState(maySignedIn);
  const user = useQuery({
    queryKey: ['user-details'],
    queryFn: () => getUserDetails(failed ? quietClient : undefined),
    staleTime: Number.POSITIVE_INFINITY,
    enabled: hinted,
  });
  useEffect(() => {
    if (user.data) writeCurrentUser(user.data);
  }, [user.data]);
  const unauthenticated = user.error instanceof ApiError && user.error.status === 401;
  if (user.isError && !unauthenticated) console.warn('Could not load the user details', user.error);
  const current: CurrentUser | null =
    user.data ?? (user.isError && !unauthenticated ? readCurrentUser() : null);
  const refused = (!hinted || !user.isPending) && !current;
  useEffect(() => {
    // The api client already redirects on 401; this covers no session and a failed call with no cached user.
    if (refused && !unauthenticated && !failed) redirectToSignIn();
  }, [refused, unauthenticated, failed]);
  if (failed && refused) return <SignInFailed />;
  if (!current) return <Spinner fullScreen text={LOADING} />;
  return <UserContext.Provider value={current}>{children}</UserContext.Provider>;
}
