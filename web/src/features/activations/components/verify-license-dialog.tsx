import type { licenseLineVerdicts } from '@lp/contract/license-files/schemas';
import { verificationSummary } from '@lp/domain/license-verdicts';
import { Alert, Badge, Button, FileButton, Group, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { errorText } from '../../../lib/api-client.ts';
import { verifyLicenseFile } from '../api/history.ts';

type Verdict = (typeof licenseLineVerdicts)[number];

/** What each verdict means to the user (decision 033). */
export const verdictText: Record<Verdict, string> = {
  valid: 'Genuine',
  invalid: 'Altered',
  unsigned: 'Not signed',
  'unknown-key': 'Unknown key',
  foreign: 'Not signed by this portal',
};
const verdictColour: Record<Verdict, string> = {
  valid: 'green',
  invalid: 'red',
  unsigned: 'orange',
  'unknown-key': 'orange',
  foreign: 'orange',
};

/**
 * Verify a license file (issue 11, beyond spec 002): the user picks a file, the server checks each feature line's
 * signature against the published keys, and the dialog lists each line (line number, feature, verdict) and the
 * customer numbers and host ids the file was issued for, under one overall verdict line worded as the CLI's
 * `license verify` ends. A refused file shows the server's text.
 */
export function VerifyLicenseDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const verify = useMutation({ mutationFn: verifyLicenseFile });
  const close = () => {
    verify.reset();
    onClose();
  };
  const result = verify.data;
  return (
    <Modal
      opened={opened}
      onClose={close}
      size={1200}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
      title="Verify a license file"
    >
      <Stack>
        <Text size="sm">
          Choose a license file to check that every feature line is genuine: signed by the portal and
          unchanged.
        </Text>
        <Group>
          <FileButton onChange={(file) => file && verify.mutate(file)} accept=".lic,.dat,.txt,text/plain">
            {(props) => (
              <Button {...props} loading={verify.isPending}>
                Choose file
              </Button>
            )}
          </FileButton>
          {verify.variables ? <Text size="sm">{verify.variables.name}</Text> : null}
        </Group>
        {verify.isPending ? (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">Verifying license file...</Text>
          </Group>
        ) : null}
        {verify.isError ? (
          <Alert color="red" role="alert" title="The file could not be verified">
            {errorText(verify.error)}
          </Alert>
        ) : null}
        {result ? (
          <Stack gap="xs" role="region" aria-label="Verification result">
            <Alert
              color={result.lines.every((l) => l.verdict === 'valid') ? 'green' : 'red'}
              title={`${verify.variables?.name ?? 'The file'}: ${verificationSummary(result.lines)}`}
              data-testid="verify-summary"
            />
            <Text size="sm">
              Issued for customer {result.customers.length ? result.customers.join(', ') : '(none named)'} on
              host id {result.hostIds.length ? result.hostIds.join(', ') : '(none named)'}
            </Text>
            <Table striped withTableBorder aria-label="Feature lines">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Line</Table.Th>
                  <Table.Th>Feature</Table.Th>
                  <Table.Th>Verdict</Table.Th>
                  <Table.Th>Customer</Table.Th>
                  <Table.Th>Detail</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.lines.map((l) => (
                  <Table.Tr key={l.line}>
                    <Table.Td>{l.line}</Table.Td>
                    <Table.Td>
                      {l.keyword} {l.feature}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={verdictColour[l.verdict]} variant="light" tt="none">
                        {verdictText[l.verdict]}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{l.customerNumber ?? ''}</Table.Td>
                    <Table.Td>{l.reason}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        ) : null}
        <Group justify="flex-end">
          <Button onClick={close}>Ok</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
