// Images pasted or dropped into the prompt, and images of messages
// fetched by hash (the backend never pushes them inline).
import { useEffect, useState } from "react";
import type { Backend } from "./backend";
import type { ImageInput } from "./wire.gen";

/** The media types models take. */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
/** The largest image a model takes (Anthropic: 5 MB). */
export const MAX_IMAGE_BYTES = 5 << 20;

/** An image attached to the prompt, with a data: URL for its thumbnail. */
export interface Attached extends ImageInput {
  name: string;
  url: string;
}

/** The image files of a paste or a drop. */
export function imageFiles(dt: DataTransfer | null): File[] {
  if (!dt) return [];
  const files = [...dt.files];
  if (files.length === 0) {
    for (const item of dt.items ?? []) {
      const f = item.kind === "file" ? item.getAsFile() : null;
      if (f) files.push(f);
    }
  }
  return files.filter((f) => f.type.startsWith("image/"));
}

/** Reads an image file; the error is a sentence saying what to do. */
export function readImage(file: File): Promise<Attached> {
  if (!IMAGE_TYPES.includes(file.type))
    return Promise.reject(new Error(`${file.name || "The image"} is ${file.type || "of an unknown type"}; attach a PNG, JPEG, GIF or WebP image.`));
  if (file.size > MAX_IMAGE_BYTES)
    return Promise.reject(new Error(`${file.name || "The image"} is ${(file.size / 1048576).toFixed(1)} MB; models take images up to 5 MB. Attach a crop or a JPEG.`));
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => {
      const url = String(r.result);
      resolve({ name: file.name || "pasted image", mediaType: file.type, data: url.slice(url.indexOf(",") + 1), url });
    };
    r.onerror = () => reject(new Error(`${file.name || "The image"} could not be read.`));
    r.readAsDataURL(file);
  });
}

const cache = new Map<string, Promise<string>>();

/** The data: URL of a stored image, fetched once per hash. */
export function useImage(backend: Backend, hash: string): { url?: string; error?: string } {
  const [state, setState] = useState<{ url?: string; error?: string }>({});
  useEffect(() => {
    let live = true;
    let p = cache.get(hash);
    if (!p) {
      p = backend.getImage(hash).then((v) => v.dataUrl);
      cache.set(hash, p);
      p.catch(() => cache.delete(hash));
    }
    p.then(
      (url) => live && setState({ url }),
      (err: unknown) => live && setState({ error: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [backend, hash]);
  return state;
}
