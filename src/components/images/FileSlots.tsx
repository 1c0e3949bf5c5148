// Named file slots (a client's photo, identity document and consent form, ADR-0028): each slot
// takes one file, from the camera on a phone or a file chooser; photos are shrunk like other
// record images, documents may also be PDFs. A slot's file can be opened, downloaded, replaced
// or removed. Controlled, like ImagePicker: the screen keeps the changes (ImageChanges) and
// hands them to the data layer on save.
import { useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Typography } from '@mui/material';
import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { downloadBlob, openBlob } from '../../lib/ui';
import { NotUploadedChip } from '../AmberChip';
import { BlobImage, SourceImage } from './BlobImage';
import { FileInputs } from './FileInputs';
import type { ImageChanges, ImageChangesProps } from './ImagePicker';
import { ImageRejected, PDF_TYPE, prepareDocument, shrinkImage } from './shrink';
import { sourceBlob, type ExistingImage } from './sources';
import { useSay } from '../../lib/session';

export interface FileSlot {
  slot: string;
  label: string;
  /** Takes scanned documents (PDF) as well as photos. */
  documents?: boolean;
}

export interface FileSlotsProps extends ImageChangesProps {
  slots: readonly FileSlot[];
  /** Read-only: open and download only (the client page). */
  readOnly?: boolean;
}

/** What a slot shows: a file picked now, or the one the record has. */
interface Filled {
  blob?: Blob;
  existing?: ExistingImage;
  name: string;
  isPdf: boolean;
  notUploaded: boolean;
}

function filledOf(slot: string, existing: readonly ExistingImage[], value: ImageChanges): Filled | null {
  const added = value.images.find((i) => i.slot === slot);
  if (added) return { blob: added.blob, name: added.name ?? slot, isPdf: added.blob.type === PDF_TYPE, notUploaded: true };
  const old = existing.find((i) => i.slot === slot);
  if (!old || value.removeImages.includes(slot)) return null;
  const type = old.type ?? (old.source.kind === 'local' ? old.source.type : '');
  return { existing: old, name: old.name ?? slot, isPdf: type === PDF_TYPE, notUploaded: old.pending === true };
}

function blobOf(filled: Filled): Promise<Blob> {
  if (filled.blob) return Promise.resolve(filled.blob);
  if (filled.existing) return sourceBlob(filled.existing.source);
  return Promise.reject(new Error('empty slot'));
}

function Preview({ filled, alt }: { filled: Filled; alt: string }) {
  if (filled.isPdf) {
    return (
      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 0.5, p: 1, textAlign: 'center', minWidth: 0 }}>
        <PictureAsPdfIcon fontSize="large" color="error" aria-hidden />
        <Typography variant="caption" sx={{ overflowWrap: 'anywhere' }}>
          {filled.name}
        </Typography>
      </Box>
    );
  }
  if (filled.blob) return <BlobImage blob={filled.blob} alt={alt} />;
  if (filled.existing) return <SourceImage source={filled.existing.source} alt={alt} />;
  return null;
}

interface SlotProps extends Omit<FileSlotsProps, 'slots'> {
  slot: FileSlot;
}

function SlotCard({ slot, existing = [], value, onChange, disabled, readOnly }: SlotProps) {
  const t = useSay();
  const camera = useRef<HTMLInputElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const filled = filledOf(slot.slot, existing, value);
  const headingId = `file-slot-${slot.slot}`;

  const put = async (file: File) => {
    setBusy(true);
    setProblem(null);
    try {
      const ready = slot.documents ? await prepareDocument(file, file.name) : await shrinkImage(file, file.name);
      const images = [...value.images.filter((i) => i.slot !== slot.slot), { slot: slot.slot, blob: ready.blob, name: ready.name }];
      onChange({ images, removeImages: value.removeImages.filter((s) => s !== slot.slot) });
    } catch (error) {
      const reason = error instanceof ImageRejected ? error.reason : 'unreadable';
      setProblem(t(slot.documents ? `files.error.${reason}` : `images.error.${reason}`, { name: file.name }));
    } finally {
      setBusy(false);
    }
  };

  const remove = () => {
    const images = value.images.filter((i) => i.slot !== slot.slot);
    const stored = existing.some((i) => i.slot === slot.slot);
    onChange({
      images,
      removeImages: stored && !value.removeImages.includes(slot.slot) ? [...value.removeImages, slot.slot] : value.removeImages,
    });
  };

  const withBlob = (use: (blob: Blob) => void) => {
    if (!filled) return;
    blobOf(filled).then(use, () => setProblem(t('files.error.unavailable', { name: slot.label })));
  };

  const onFiles = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = ''; // the same file can be picked again after a removal
    if (file) void put(file);
  };

  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      data-testid={`file-slot-${slot.slot}`}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, display: 'flex', flexDirection: 'column', gap: 1, minWidth: 0 }}
    >
      <Typography id={headingId} component="h3" variant="subtitle2">
        {slot.label}
      </Typography>
      <Box
        sx={{
          aspectRatio: '4 / 3',
          maxHeight: 200,
          borderRadius: 1,
          overflow: 'hidden',
          bgcolor: 'action.hover',
          display: 'grid',
          placeItems: 'center',
        }}
      >
        {filled ? (
          <Preview filled={filled} alt={slot.label} />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('files.empty')}
          </Typography>
        )}
      </Box>
      {filled?.notUploaded && (
        <Box>
          <NotUploadedChip />
        </Box>
      )}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        {filled && (
          <>
            <Button
              size="small"
              startIcon={<OpenInNewIcon />}
              onClick={() => withBlob(openBlob)}
              aria-label={t('files.openNamed', { name: slot.label })}
            >
              {t('files.open')}
            </Button>
            <Button
              size="small"
              startIcon={<DownloadIcon />}
              onClick={() => withBlob((blob) => downloadBlob(blob, filled.name))}
              aria-label={t('files.downloadNamed', { name: slot.label })}
            >
              {t('files.download')}
            </Button>
          </>
        )}
        {!readOnly && (
          <>
            <Button
              size="small"
              variant="outlined"
              startIcon={<PhotoCameraIcon />}
              disabled={disabled || busy}
              onClick={() => camera.current?.click()}
              aria-label={t('files.takeNamed', { name: slot.label })}
            >
              {t('images.takePhoto')}
            </Button>
            <Button
              size="small"
              variant="outlined"
              startIcon={<AddPhotoAlternateIcon />}
              disabled={disabled || busy}
              onClick={() => picker.current?.click()}
              aria-label={t(filled ? 'files.replaceNamed' : 'files.chooseNamed', { name: slot.label })}
            >
              {t(filled ? 'files.replace' : 'images.pickFile')}
            </Button>
            {filled && (
              <Button
                size="small"
                color="error"
                startIcon={<DeleteIcon />}
                disabled={disabled || busy}
                onClick={remove}
                aria-label={t('files.removeNamed', { name: slot.label })}
              >
                {t('files.remove')}
              </Button>
            )}
            {busy && <CircularProgress size={20} aria-label={t('images.processing')} />}
          </>
        )}
      </Box>
      {!readOnly && (
        <FileInputs
          camera={camera}
          picker={picker}
          accept={slot.documents ? `image/*,${PDF_TYPE}` : 'image/*'}
          onFiles={onFiles}
          testIds={{ camera: `file-camera-${slot.slot}`, picker: `file-input-${slot.slot}` }}
        />
      )}
      {problem && (
        <Alert severity="warning" onClose={() => setProblem(null)}>
          {problem}
        </Alert>
      )}
    </Box>
  );
}

export function FileSlots(props: FileSlotsProps) {
  return (
    <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(220px, 1fr))' } }}>
      {props.slots.map((slot) => (
        <SlotCard key={slot.slot} {...props} slot={slot} />
      ))}
    </Box>
  );
}
