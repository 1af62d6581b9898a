import { useImage } from "../../lib/images";
import type { Block } from "../../lib/wire.gen";
import { useController } from "../../state/context";

/** An image of a message, fetched by its hash. */
export default function MessageImage({ block }: { block: Block }) {
  const c = useController();
  const { url, error } = useImage(c.backend, block.hash ?? "");
  if (error)
    return (
      <p className="image-missing" data-testid="image-attachment" data-missing="true">
        An image ({block.mediaType}) was here; it could not be loaded: {error}
      </p>
    );
  return url ? (
    <a href={url} target="_blank" rel="noreferrer" className="message-image">
      <img data-testid="image-attachment" src={url} alt={`Attached image (${block.mediaType ?? "image"})`} />
    </a>
  ) : (
    <span className="message-image loading" aria-label="Loading the image" />
  );
}
