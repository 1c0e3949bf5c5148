// The hidden inputs a picker's buttons open: the camera directly on a phone, or the file chooser.
import type { RefObject } from 'react';

interface FileInputsProps {
  camera: RefObject<HTMLInputElement | null>;
  picker: RefObject<HTMLInputElement | null>;
  /** What the file chooser takes (the camera takes photos). */
  accept: string;
  multiple?: boolean;
  onFiles: (input: HTMLInputElement) => void;
  testIds: { camera: string; picker: string };
}

export function FileInputs({ camera, picker, accept, multiple, onFiles, testIds }: FileInputsProps) {
  return (
    <>
      <input
        ref={camera}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        onChange={(event) => onFiles(event.currentTarget)}
        data-testid={testIds.camera}
      />
      <input
        ref={picker}
        type="file"
        accept={accept}
        multiple={multiple}
        hidden
        onChange={(event) => onFiles(event.currentTarget)}
        data-testid={testIds.picker}
      />
    </>
  );
}
