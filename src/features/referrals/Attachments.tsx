// A service referral's documents (ADR-0029): listed with open and download, and added from
// the device (photos or PDF, the same file rules as elsewhere: the server checks type and size).
import { useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, IconButton, List, ListItem, ListItemText, Tooltip, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import DownloadIcon from '@mui/icons-material/Download';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { useIntl } from 'react-intl';
import { messageOf } from '../../components/entity';
import { shrinkImage } from '../../components/images';
import { MAX_IMAGE_BYTES } from '../../../schemas/index';
import { formatDateTime, notify } from '../../lib/ui';
import { attachFiles, fetchAttachment, type Attachment, type Row } from './referralApi';
import { useSay } from '../../lib/session';

/** What the file picker offers (the server refuses anything else, and files over 5 MB). */
export const ATTACHMENT_ACCEPT = 'image/jpeg,image/png,image/webp,application/pdf';
export const MAX_ATTACHMENTS = 10;

async function openBlob(key: string, file: Attachment, download: boolean): Promise<void> {
  const blob = await fetchAttachment(key, file.name);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.rel = 'noopener';
  if (download) link.download = file.name;
  else link.target = '_blank';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const sizeText = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The files as they will be sent: photos shrunk on the device like every other image (a phone
 * photo fits the 5 MB limit and a slow connection), PDFs as they are; the names of those that
 * cannot be sent (not an image or a PDF, unreadable, over 5 MB). */
export async function prepareFiles(files: readonly File[]): Promise<{ ready: File[]; refused: string[] }> {
  const ready: File[] = [];
  const refused: string[] = [];
  for (const file of files) {
    try {
      if (file.type === 'application/pdf') {
        if (file.size > MAX_IMAGE_BYTES) throw new Error('tooLarge');
        ready.push(file);
      } else {
        const shrunk = await shrinkImage(file);
        ready.push(new File([shrunk.blob], shrunk.name, { type: shrunk.blob.type }));
      }
    } catch {
      refused.push(file.name);
    }
  }
  return { ready, refused };
}

/** A hidden file input behind a button: the files chosen (prepared for sending), then cleared
 * for the next choice; files that cannot be sent are named through `onRefused`. */
export function FilePickButton({ label, disabled, onFiles }: { label: string; disabled?: boolean; onFiles: (files: File[]) => void }) {
  const say = useSay();
  const input = useRef<HTMLInputElement>(null);
  const [refused, setRefused] = useState<string[]>([]);
  const pick = async (files: File[]) => {
    const prepared = await prepareFiles(files);
    setRefused(prepared.refused);
    if (prepared.ready.length) onFiles(prepared.ready);
  };
  return (
    <>
      <Button variant="outlined" startIcon={<AttachFileIcon />} disabled={disabled} onClick={() => input.current?.click()}>
        {label}
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        accept={ATTACHMENT_ACCEPT}
        hidden
        aria-label={label}
        data-testid="attachment-input"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length) void pick(files);
        }}
      />
      {refused.length > 0 && (
        <Alert severity="error" onClose={() => setRefused([])} sx={{ mt: 1 }}>
          {say('referrals.attachments.refused', { names: refused.join(', ') })}
        </Alert>
      )}
    </>
  );
}

interface AttachmentsProps {
  referral: Row;
  canWrite: boolean;
  onSaved: (row: Row) => void;
}

export function Attachments({ referral, canWrite, onSaved }: AttachmentsProps) {
  const intl = useIntl();
  const say = useSay();
  const key = String(referral.ref_Id);
  const files = (referral.attachments as Attachment[] | null) ?? [];
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const add = async (chosen: File[]) => {
    setFailure(null);
    if (files.length + chosen.length > MAX_ATTACHMENTS) {
      setFailure(say('referrals.attachments.tooMany', { max: MAX_ATTACHMENTS }));
      return;
    }
    setBusy(true);
    try {
      onSaved(await attachFiles(key, chosen));
      notify.success(say('referrals.attachments.added', { count: chosen.length }));
    } catch (error) {
      setFailure(say('referrals.attachments.failed', { message: messageOf(error) }));
    } finally {
      setBusy(false);
    }
  };

  const show = (file: Attachment, download: boolean) => {
    openBlob(key, file, download).catch((error: unknown) =>
      setFailure(say('referrals.attachments.openFailed', { message: messageOf(error) })),
    );
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      {failure && (
        <Alert severity="error" onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      {files.length === 0 ? (
        <Typography color="text.secondary">{say('referrals.attachments.none')}</Typography>
      ) : (
        <List dense disablePadding data-testid="attachment-list">
          {files.map((file) => (
            <ListItem
              key={file.name}
              disableGutters
              secondaryAction={
                <Box sx={{ display: 'flex' }}>
                  <Tooltip title={say('referrals.attachments.open', { name: file.name })}>
                    <IconButton aria-label={say('referrals.attachments.open', { name: file.name })} onClick={() => show(file, false)}>
                      <OpenInNewIcon />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={say('referrals.attachments.download', { name: file.name })}>
                    <IconButton aria-label={say('referrals.attachments.download', { name: file.name })} onClick={() => show(file, true)}>
                      <DownloadIcon />
                    </IconButton>
                  </Tooltip>
                </Box>
              }
              sx={{ pr: 12 }}
            >
              <ListItemText
                primary={file.name}
                secondary={`${sizeText(file.size)} · ${formatDateTime(file.uploadedAt, intl.locale)}`}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
      {canWrite && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <FilePickButton
            label={say('referrals.attachments.add')}
            disabled={busy || files.length >= MAX_ATTACHMENTS}
            onFiles={(chosen) => void add(chosen)}
          />
          {busy && <CircularProgress size={20} aria-label={say('referrals.attachments.uploading')} />}
        </Box>
      )}
    </Box>
  );
}
