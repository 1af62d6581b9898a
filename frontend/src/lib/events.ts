// Mirrors backend/events/events.go: every event name the backend emits and
// its payload. backend/events/events_test.go fails when a Go constant is
// missing here.

export interface AppReadyPayload {
  startupMs: number;
}

export interface EventMap {
  "app:ready": AppReadyPayload;
}

export type EventName = keyof EventMap;
