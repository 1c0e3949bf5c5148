// What a screen that only the server can answer shows with no connection (offline mode, or no
// network): a plain sentence instead of a spinner or an error, and nothing is sent.
import type { ReactNode } from 'react';
import { Alert } from '@mui/material';
import { Page } from './Page';
import { useConnected } from './useConnected';
import { useSay } from '../lib/session';

export function NeedsConnection({
  messageId = 'common.needsConnection',
  testId = 'needs-connection',
}: {
  messageId?: string;
  testId?: string;
}) {
  const say = useSay();
  return (
    <Alert severity="info" data-testid={testId}>
      {say(messageId)}
    </Alert>
  );
}

interface OnlineOnlyProps {
  children: ReactNode;
  messageId?: string;
  testId?: string;
  /** A whole screen: the notice stands under the screen's title. */
  titleId?: string;
}

/** The children when connected; the notice otherwise. */
export function OnlineOnly({ children, messageId, testId, titleId }: OnlineOnlyProps) {
  const say = useSay();
  if (useConnected()) return children;
  const notice = <NeedsConnection messageId={messageId} testId={testId} />;
  return titleId ? <Page title={say(titleId)}>{notice}</Page> : notice;
}
