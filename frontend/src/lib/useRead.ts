import { useEffect, useState, type DependencyList, type Dispatch, type SetStateAction } from "react";
import { errorText } from "./format";

/**
 * What read answers, asked again when deps change (an answer that comes
 * after they changed, or after unmounting, is dropped): the value, null
 * until it comes, or why it could not be read; set replaces the value
 * (with one a later call answered).
 */
export function useRead<T>(read: () => Promise<T>, deps: DependencyList): { value: T | null; error: string | null; set: Dispatch<SetStateAction<T | null>> } {
  const [value, set] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    read()
      .then((v) => live && set(v))
      .catch((err: unknown) => live && setError(errorText(err)));
    return () => {
      live = false;
    };
  }, deps);
  return { value, error, set };
}
