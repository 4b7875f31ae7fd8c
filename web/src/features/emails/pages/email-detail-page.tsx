import type { EmailDetail } from '@lp/contract/emails/schemas';
import { formatCount } from '@lp/domain/amounts';
import { Button, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { noticeState, useCustomer, useCustomerOfType } from '../../../app/customer-context.tsx';
import { usePanels } from '../../../components/panels.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { getEmail } from '../api/emails.ts';
import { EmailBodyFrame } from '../components/email-body-frame.tsx';
import { emailsAllowedFor } from '../emails-rules.ts';

export const EMAIL_SPINNER = 'Getting Email...';

type Attachment = EmailDetail['attachments'][number];

/** The file as it was sent, saved under its own name. */
function saveAttachment(a: Attachment) {
  const bytes = Uint8Array.from(atob(a.contentBase64), (c) => c.charCodeAt(0));
  saveFile(new Blob([bytes], { type: a.contentType }), a.fileName);
}

/** The files sent with the e-mail (a license file, a statement): name, size and a way to save each. */
function Attachments({ attachments }: { attachments: Attachment[] }) {
  if (!attachments.length) return null;
  return (
    <Stack gap={4} role="region" aria-label="Attachments">
      <Text size="sm" fw={500}>
        Attachments
      </Text>
      {attachments.map((a) => (
        <Group key={a.fileName} gap="sm">
          <Text size="sm">
            {a.fileName} ({formatCount(a.size)} bytes)
          </Text>
          <Button
            size="compact-sm"
            variant="default"
            aria-label={`Download ${a.fileName}`}
            onClick={() => saveAttachment(a)}
          >
            Download
          </Button>
        </Group>
      ))}
    </Stack>
  );
}

function EmailFields({ email }: { email: EmailDetail }) {
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="To" value={email.to} readOnly />
        <TextInput label="Date" value={email.date} readOnly />
        <TextInput label="Subject" value={email.subject} readOnly />
        <TextInput label="Customer Number" value={email.customerNumber} readOnly />
        <TextInput label="Customer Name" value={email.customerName} readOnly />
      </SimpleGrid>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="email-body-label">
          Body
        </Text>
        <EmailBodyFrame html={email.body} title={`E-mail body: ${email.subject}`} />
      </Stack>
      <Attachments attachments={email.attachments} />
    </Stack>
  );
}

function EmailDetailScreen() {
  const { customer, version } = useCustomer();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { showError } = usePanels();
  const customerNumber = customer?.customerNumber ?? '';
  // A customer of another type goes to /notypecustomer (spec 000 §6).
  const allowed = !!useCustomerOfType((info) => emailsAllowedFor(info?.orgType));
  const validId = /^\d{1,15}$/.test(id);

  const email = useQuery({
    queryKey: ['email', customerNumber, id],
    queryFn: () => getEmail(customerNumber, id),
    enabled: !!customer && allowed && validId,
    retry: false,
    gcTime: 0,
  });

  useEffect(() => {
    if (!customer || !allowed) return;
    if (!validId) {
      navigate('/emails', { replace: true });
    } else if (email.data && email.data.customerNumber !== customerNumber) {
      // Spec 000 §7: a record of another customer sends the user back to the list.
      navigate('/emails', { replace: true });
    } else if (email.error instanceof ApiError) {
      // Not this customer's e-mail (the server answers 404 for those): back to the list; no access: notice.
      if (email.error.status === 404) navigate('/emails', { replace: true });
      else if (email.error.status === 403)
        navigate('/nopermissions', { replace: true, state: noticeState(version, customerNumber) });
      else showError(email.error.err);
    } else if (email.error) {
      console.error('Could not get the e-mail', email.error);
    }
  }, [customer, allowed, validId, email.data, email.error, customerNumber, navigate, version, showError]);

  return (
    <Stack data-testid="email-detail-page">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Email
        </Title>
        <Button component={Link} to="/emails" variant="default" size="xs">
          Back to Emails
        </Button>
      </Group>
      {email.isPending && email.fetchStatus !== 'idle' ? <Spinner text={EMAIL_SPINNER} /> : null}
      {email.data && email.data.customerNumber === customerNumber ? <EmailFields email={email.data} /> : null}
    </Stack>
  );
}

/** Routed at /emails/:id inside RequireCustomer (web/src/app/router.tsx). */
export default EmailDetailScreen;
