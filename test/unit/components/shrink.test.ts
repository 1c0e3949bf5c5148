// @vitest-environment jsdom
// Images are shrunk on the device to at most 1600 px (ADR-0025) before they are stored or sent.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ImageRejected, jpegName, shrinkImage, targetSize } from '../../../src/components/images/shrink';

describe('targetSize', () => {
  it('brings a 4000×3000 phone photo down to 1600×1200', () => {
    expect(targetSize(4000, 3000)).toEqual({ width: 1600, height: 1200, scaled: true });
  });

  it('keeps the proportions of portraits and odd sizes', () => {
    expect(targetSize(3000, 4000)).toEqual({ width: 1200, height: 1600, scaled: true });
    expect(targetSize(4032, 3024)).toEqual({ width: 1600, height: 1200, scaled: true });
    expect(targetSize(10000, 10)).toEqual({ width: 1600, height: 2, scaled: true });
    expect(targetSize(100000, 1).height).toBe(1); // never 0 px
  });

  it('never enlarges a small image', () => {
    expect(targetSize(800, 600)).toEqual({ width: 800, height: 600, scaled: false });
    expect(targetSize(1600, 1200)).toEqual({ width: 1600, height: 1200, scaled: false });
  });
});

describe('jpegName', () => {
  it('names a converted image .jpg', () => {
    expect(jpegName('IMG_0001.HEIC')).toBe('IMG_0001.jpg');
    expect(jpegName('scan.png')).toBe('scan.jpg');
    expect(jpegName('photo')).toBe('photo.jpg');
  });
});

/** A decoder and an encoder in place of the browser's, which jsdom lacks. */
function stubCanvas(width: number, height: number) {
  const drawn: { width: number; height: number; type?: string; quality?: number }[] = [];
  vi.stubGlobal(
    'createImageBitmap',
    vi.fn(async () => ({ width, height, close: vi.fn() })),
  );
  vi.stubGlobal(
    'OffscreenCanvas',
    class {
      constructor(
        readonly width: number,
        readonly height: number,
      ) {}
      getContext() {
        return { fillRect: vi.fn(), drawImage: vi.fn(), fillStyle: '', imageSmoothingQuality: 'low' };
      }
      async convertToBlob(options: { type: string; quality: number }) {
        drawn.push({ width: this.width, height: this.height, ...options });
        return new Blob([new Uint8Array(300_000)], { type: options.type });
      }
    },
  );
  return drawn;
}

describe('shrinkImage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('redraws a large photo as a JPEG of 1600 px at quality 0.85', async () => {
    const drawn = stubCanvas(4000, 3000);
    const photo = new File([new Uint8Array(6_000_000)], 'IMG_0001.png', { type: 'image/png' });
    const result = await shrinkImage(photo);
    expect(drawn).toEqual([{ width: 1600, height: 1200, type: 'image/jpeg', quality: 0.85 }]);
    expect(result).toMatchObject({ name: 'IMG_0001.jpg', width: 1600, height: 1200 });
    expect(result.blob.type).toBe('image/jpeg');
  });

  it('keeps a small PNG or WebP as it is', async () => {
    const drawn = stubCanvas(800, 600);
    const png = new File([new Uint8Array(50_000)], 'sign.png', { type: 'image/png' });
    const result = await shrinkImage(png);
    expect(drawn).toEqual([]);
    expect(result.blob).toBe(png);
    expect(result.name).toBe('sign.png');
  });

  it('converts a small image of a type the server does not keep', async () => {
    const drawn = stubCanvas(800, 600);
    const gif = new File([new Uint8Array(1000)], 'map.gif', { type: 'image/gif' });
    const result = await shrinkImage(gif);
    expect(drawn).toHaveLength(1);
    expect(result.name).toBe('map.jpg');
  });

  it('refuses what is not an image', async () => {
    const pdf = new File(['%PDF'], 'form.pdf', { type: 'application/pdf' });
    await expect(shrinkImage(pdf)).rejects.toEqual(new ImageRejected('notImage'));
  });

  it('refuses an image the device cannot read', async () => {
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(async () => Promise.reject(new Error('decode'))),
    );
    const heic = new File([new Uint8Array(10)], 'x.heic', { type: 'image/heic' });
    await expect(shrinkImage(heic)).rejects.toMatchObject({ reason: 'unreadable' });
  });

  it('refuses an image still over 5 MB', async () => {
    stubCanvas(1000, 800);
    const huge = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.jpg', { type: 'image/jpeg' });
    await expect(shrinkImage(huge)).rejects.toMatchObject({ reason: 'tooLarge' });
  });
});
