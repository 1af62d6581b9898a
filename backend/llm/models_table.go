package llm

// The model table, as of 2026-11-29: each model's context window, answer
// limit and prices (US dollars per million tokens: input, output, cache
// read, cache write; a write of 0 costs as input) as the provider's own
// documentation states them. A model whose prices were not all found there
// (cache prices included) has none: its window still counts, and Cost says
// it does not know what a call costs. Models a provider no longer lists
// keep the figures of the earlier table (2025) for the sessions that still
// name them. docs/MODELS.md says the same, and where each figure came from.
var models = []Model{
	// Anthropic: https://platform.claude.com/docs/en/about-claude/models/overview,
	// the models' pages (…/docs/en/models/<model>/overview) and
	// https://platform.claude.com/docs/en/about-claude/pricing, read
	// 2026-11-29 in copies of September to November 2026. Claude Fable 5.2
	// and Haiku 5.5 have no prices here: the copies found give their input
	// and output prices (Haiku 5.5's in two bands, by prompt length) but
	// not all of their cache prices; nor for Sonnet 4.6, whose row of the
	// pricing page no copy found shows. Sonnet 5.5's cache read is the model
	// page's $0.20; price trackers report a cut to $0.10 on 2026-10-07 that
	// no copy of Anthropic's own page found here shows.
	{"claude-fable-5-2", ProviderAnthropic, 1_000_000, 128_000, 0, 0, 0, 0},
	{"claude-fable-5-1", ProviderAnthropic, 1_000_000, 128_000, 10, 50, 0.25, 12.50},
	{"claude-fable-5", ProviderAnthropic, 1_000_000, 128_000, 10, 50, 1, 12.50},
	{"claude-opus-5-5", ProviderAnthropic, 1_000_000, 128_000, 4, 20, 0.20, 5},
	{"claude-opus-5", ProviderAnthropic, 1_000_000, 128_000, 5, 25, 0.50, 6.25},
	{"claude-sonnet-5-5", ProviderAnthropic, 1_000_000, 128_000, 2, 10, 0.20, 2.50},
	{"claude-sonnet-5", ProviderAnthropic, 1_000_000, 128_000, 2, 10, 0.20, 2.50},
	{"claude-haiku-5-5", ProviderAnthropic, 1_000_000, 128_000, 0, 0, 0, 0},
	{"claude-haiku-4-5", ProviderAnthropic, 200_000, 64_000, 1, 5, 0.10, 1.25},
	{"claude-opus-4-8", ProviderAnthropic, 1_000_000, 128_000, 5, 25, 0.50, 6.25},
	{"claude-opus-4-6", ProviderAnthropic, 1_000_000, 128_000, 5, 25, 0.50, 6.25},
	{"claude-sonnet-4-6", ProviderAnthropic, 1_000_000, 128_000, 0, 0, 0, 0},
	{"claude-opus-4-5", ProviderAnthropic, 200_000, 64_000, 5, 25, 0.50, 6.25},
	{"claude-opus-4-1", ProviderAnthropic, 200_000, 32_000, 15, 75, 1.50, 18.75},
	{"claude-opus-4", ProviderAnthropic, 200_000, 32_000, 15, 75, 1.50, 18.75},
	// Earlier table (2025):
	{"claude-sonnet-4-5", ProviderAnthropic, 200_000, 64_000, 3, 15, 0.30, 3.75},
	{"claude-sonnet-4", ProviderAnthropic, 200_000, 64_000, 3, 15, 0.30, 3.75},
	{"claude-3-5-haiku", ProviderAnthropic, 200_000, 8_192, 0.80, 4, 0.08, 1},

	// OpenAI: https://developers.openai.com/api/docs/models and the models'
	// pages (…/api/docs/models/<model>), read 2026-11-29 in copies of
	// October and November 2026. Cache writes are the 30-minute ones. A
	// prompt over 272K tokens costs twice the input and cache prices and
	// 1.5 times the output price (longPrompt). GPT-6.2 Astra, GPT-6.1 Sol,
	// GPT-6 Astra and the GPT-5.6 models have no prices here: the copies
	// found give their input and output prices, not their cache prices.
	{"gpt-6.2-sol", ProviderOpenAI, 1_050_000, 128_000, 2, 10, 0.10, 2.50},
	{"gpt-6.1-terra", ProviderOpenAI, 1_050_000, 128_000, 1, 5, 0.05, 1.25},
	{"gpt-6-luna", ProviderOpenAI, 1_050_000, 128_000, 0.10, 0.50, 0.01, 0.125},
	{"gpt-6.2-astra", ProviderOpenAI, 1_050_000, 128_000, 0, 0, 0, 0},
	{"gpt-6.1-sol", ProviderOpenAI, 1_050_000, 128_000, 0, 0, 0, 0},
	{"gpt-6-astra", ProviderOpenAI, 1_050_000, 128_000, 0, 0, 0, 0},
	{"gpt-5.6-sol", ProviderOpenAI, 1_050_000, 128_000, 0, 0, 0, 0},
	{"gpt-5.6-terra", ProviderOpenAI, 1_050_000, 128_000, 0, 0, 0, 0},
	{"gpt-5.6-luna", ProviderOpenAI, 1_050_000, 128_000, 0, 0, 0, 0},
	// Earlier table (2025):
	{"gpt-4o", ProviderOpenAI, 128_000, 16_384, 2.50, 10, 1.25, 0},
	{"gpt-4o-mini", ProviderOpenAI, 128_000, 16_384, 0.15, 0.60, 0.075, 0},
	{"gpt-4.1", ProviderOpenAI, 1_047_576, 32_768, 2, 8, 0.50, 0},
	{"gpt-4.1-mini", ProviderOpenAI, 1_047_576, 32_768, 0.40, 1.60, 0.10, 0},
	{"gpt-4.1-nano", ProviderOpenAI, 1_047_576, 32_768, 0.10, 0.40, 0.025, 0},
	{"gpt-5", ProviderOpenAI, 400_000, 128_000, 1.25, 10, 0.125, 0},
	{"gpt-5-mini", ProviderOpenAI, 400_000, 128_000, 0.25, 2, 0.025, 0},
	{"o3", ProviderOpenAI, 200_000, 100_000, 2, 8, 0.50, 0},
	{"o4-mini", ProviderOpenAI, 200_000, 100_000, 1.10, 4.40, 0.275, 0},

	// DeepSeek: https://api-docs.deepseek.com/quick_start/pricing, read
	// 2026-11-29 in a copy of 2026-11-15. deepseek-v4-flash, the preset's
	// model, is an old name DeepSeek still accepts and serves with
	// deepseek-flash (DeepSeek-V4.1-Flash) at its prices. The prices are
	// the peak-hour ones (01:00-04:00 and 06:00-10:00 UTC on weekdays);
	// off-peak is half: Pilot counts the most a call can cost. A cache miss
	// costs as input; DeepSeek charges no cache write.
	{"deepseek-flash", "deepseek", 1_000_000, 384_000, 0.30, 1.20, 0.006, 0},
	{"deepseek-v4-flash", "deepseek", 1_000_000, 384_000, 0.30, 1.20, 0.006, 0},
	{"deepseek-v4-pro", "deepseek", 1_000_000, 384_000, 1.32, 3.96, 0.044, 0},

	// Gemini: https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/2-5-pro
	// (Google's own page of the model: 1,048,576 input tokens, 65,535
	// output tokens), read 2026-11-29. No price: no copy of Google's
	// pricing page (https://ai.google.dev/gemini-api/docs/pricing) was
	// found, nor the figures of gemini-2.5-flash or gemini-flash-latest.
	{"gemini-2.5-pro", "gemini", 1_048_576, 65_535, 0, 0, 0, 0},

	// xAI: https://docs.x.ai/developers/grok-4-7 and …/grok-4-6 (500,000
	// tokens, "no text output limit"), read 2026-11-29, and xAI's models
	// page (https://docs.x.ai/docs/models) in a copy of 2025-10-21 for
	// grok-code-fast-1 and grok-4-0709 (256,000 tokens). No answer limit is
	// stated, and no price: the copies found give no cache prices.
	{"grok-4.7", "xai", 500_000, 0, 0, 0, 0, 0},
	{"grok-4.6", "xai", 500_000, 0, 0, 0, 0, 0},
	{"grok-code-fast-1", "xai", 256_000, 0, 0, 0, 0, 0},
	{"grok-4-0709", "xai", 256_000, 0, 0, 0, 0, 0},

	// Mistral (devstral, codestral) and Groq: no rows. The copies of their
	// own pages found here were of retired models (Mistral's
	// devstral-medium-2507) or were not their own pages at all; their
	// models' figures come from the server (OpenRouter) or an override.
}

// longPrompt are the prices of a call whose prompt (input, cache reads
// and cache writes) is over above tokens, for every token of the call, by
// normalized id: OpenAI's GPT-6 models over 272K (see the table).
var longPrompt = map[string]struct {
	above  int
	prices Prices
}{
	"gpt-6-2-sol":   {272_000, Prices{Input: 4, Output: 15, CacheRead: 0.20, CacheWrite: 5}},
	"gpt-6-1-terra": {272_000, Prices{Input: 2, Output: 7.50, CacheRead: 0.10, CacheWrite: 2.50}},
	"gpt-6-luna":    {272_000, Prices{Input: 0.20, Output: 0.75, CacheRead: 0.02, CacheWrite: 0.25}},
}
