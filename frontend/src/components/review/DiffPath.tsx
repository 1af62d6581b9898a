/** A file's path at the head of its diff or preview, whole on hover when the head cuts it short. */
export default function DiffPath({ path }: { path: string }) {
  return (
    <span className="diff-path" title={path}>
      {path}
    </span>
  );
}
