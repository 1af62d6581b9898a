// A session's model (the model picker) and the user's overrides of what
// Pilot knows of models (Settings › Models; docs/MODELS.md).
import type { ModelOverride, SettingsView } from "../lib/wire.gen";
import type { ActionContext } from "./actions";
import { withSummary } from "./sessionList";

export class ModelActions {
  constructor(private readonly ctx: ActionContext) {}

  /** Switches the session to model: its next request uses it; the list and the status bar show it. */
  async setModel(sessionId: number, model: string): Promise<void> {
    try {
      const sum = await this.ctx.backend.setSessionModel(sessionId, model);
      this.ctx.store.setState((st) => withSummary(st, sum));
    } catch (err) {
      this.ctx.fail("Could not change the model", err);
    }
  }

  /**
   * Saves an override (one with no fact set removes the model's) and
   * keeps the settings it returns; a refusal is thrown, its sentence for
   * the form to show.
   */
  async setOverride(o: ModelOverride): Promise<SettingsView> {
    const settings = await this.ctx.backend.setModelOverride(o);
    this.ctx.store.setState((st) => ({ ...st, settings, settingsStatus: "ready" }));
    return settings;
  }
}
