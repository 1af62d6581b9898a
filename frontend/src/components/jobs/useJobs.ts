import { useSyncExternalStore } from "react";
import { useController } from "../../state/context";
import type { JobOutputState, JobsState } from "../../state/jobs";
import { useStoreSelect } from "../../state/store";

/** Reads a slice of the jobs' state; the component re-renders when it changes. */
export function useJobs<T>(select: (s: JobsState) => T): T {
  return useStoreSelect(useController().jobs.store, select);
}

/** A job's output record; the component re-renders (once per frame at most) when output comes. */
export function useJobOutput(sessionId: number, jobId: string): JobOutputState {
  const o = useController().jobs.output(sessionId, jobId);
  useSyncExternalStore(o.subscribe, o.getVersion, o.getVersion);
  return o;
}
