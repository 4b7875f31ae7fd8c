import { Center, Loader, Stack, Text } from '@mantine/core';

/** The product's spinner with its spec text ("Loading...", "Getting/Setting Preferences...", ...). */
export function Spinner({
  text,
  overlay,
  fullScreen,
}: {
  text: string;
  overlay?: boolean;
  fullScreen?: boolean;
}) {
  const style: React.CSSProperties | undefined = fullScreen
    ? { position: 'fixed', inset: 0, zIndex: 1000, background: 'var(--mantine-color-body)' }
    : overlay
      ? { position: 'absolute', inset: 0, zIndex: 10, background: 'rgba(255,255,255,0.7)' }
      : undefined;
  return (
    <Center style={style} mih={fullScreen || overlay ? undefined : 120}>
      <Stack align="center" gap="xs" role="status" aria-live="polite">
        <Loader />
        <Text>{text}</Text>
      </Stack>
    </Center>
  );
}
