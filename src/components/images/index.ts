// Record images (ADR-0025): pick or take up to 3, shrunk on the device, previewed and removable.
export { ImagePicker, NO_IMAGE_CHANGES, type ImageChanges, type ImageChangesProps, type ImagePickerProps } from './ImagePicker';
export { useRecordImages, fetchServerImage, sourceBlob, type ExistingImage, type ImageSource } from './sources';
export { FileSlots, type FileSlot, type FileSlotsProps } from './FileSlots';
export {
  shrinkImage,
  prepareDocument,
  targetSize,
  jpegName,
  ImageRejected,
  MAX_SIDE,
  JPEG_QUALITY,
  PDF_TYPE,
  type ImageProblem,
} from './shrink';
export { BlobImage, ImageUnavailable, SourceImage, THUMB_TILE_SX, type ImageFit } from './BlobImage';
export { toastImageFailure, imageNumber } from './failureToast';
