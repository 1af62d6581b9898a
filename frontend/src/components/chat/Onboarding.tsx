import { useController } from "../../state/context";

/** First run without a key: what to set, and a way into Settings. */
export default function Onboarding() {
  const c = useController();
  return (
    <main id="chat" className="chat" aria-label="Welcome">
      <div className="onboarding" data-testid="onboarding">
        <h1>Welcome to Pilot</h1>
        <p>Pilot needs a language model to talk to. Pick one of these, then you are ready:</p>
        <ol>
          <li>
            <strong>Anthropic (Claude).</strong> Paste an API key from console.anthropic.com in Settings, or start Pilot with{" "}
            <code>ANTHROPIC_API_KEY</code> set.
          </li>
          <li>
            <strong>A server on this machine.</strong> Choose Ollama (
            <code>http://localhost:11434/v1</code>), LM Studio, llama.cpp or vLLM as the provider — no key needed — and a model you have pulled.
          </li>
          <li>
            <strong>OpenAI, OpenRouter, DeepSeek, Mistral, Groq, Gemini or xAI.</strong> Choose it and paste its key, or set its variable (
            <code>OPENAI_API_KEY</code>, <code>DEEPSEEK_API_KEY</code>…).
          </li>
        </ol>
        <p className="muted">Keys are kept out of the session database, the logs and the commands the agent runs.</p>
        <button type="button" className="primary" data-testid="onboarding-settings" autoFocus onClick={() => c.setDialog("settings")}>
          Open Settings
        </button>
      </div>
    </main>
  );
}
