import { mayManageAccountTokens } from '@lp/domain/policy';
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useCustomer } from '../../../app/customer-context.tsx';
import { useCurrentUser } from '../../../lib/app-context.tsx';
import { AccountTokens } from '../components/account-tokens.tsx';
import { MyTokens } from '../components/my-tokens.tsx';
import { apiTokenTexts as texts } from '../texts.ts';

/**
 * /api-tokens (issue 20 §3): everyone manages their own tokens; an account's administrators and vendor staff also
 * see and revoke the tokens of the selected account's portal users.
 */
export default function ApiTokensPage() {
  const { customer } = useCustomer();
  const { roles } = useCurrentUser();
  const showAccount = !!customer?.info && mayManageAccountTokens(roles, customer.info);
  return (
    <Stack data-testid="api-tokens-page">
      <Title order={1} size="h2">
        {texts.title}
      </Title>
      <Text>
        {texts.referenceIntro} <Anchor href="/api/reference/">{texts.referenceLink}</Anchor>
      </Text>
      <MyTokens />
      {customer && showAccount ? (
        <AccountTokens
          key={customer.customerNumber}
          customerNumber={customer.customerNumber}
          customerName={customer.customerName}
        />
      ) : null}
    </Stack>
  );
}
