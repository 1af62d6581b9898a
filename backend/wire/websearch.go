package wire

// WebSearchView is Settings › Web: the search service web_search uses
// (Backend "" : none, and the tool is not offered), its address, the cap
// on a session's searches, and every backend Pilot can use.
type WebSearchView struct {
	Backend    string `json:"backend"`
	URL        string `json:"url"`
	PerSession int    `json:"perSession"`
	// ProviderSearch: the model's provider may search the web itself
	// (Anthropic's API, OpenRouter), unasked; the user's consent.
	ProviderSearch bool               `json:"providerSearch"`
	Backends       []WebSearchBackend `json:"backends"`
}

// WebSearchBackend is one search service Settings › Web offers.
type WebSearchBackend struct {
	ID   string `json:"id"` // brave, tavily, searxng
	Name string `json:"name"`
	// NeedsKey: it takes an API key (Brave, Tavily); HasKey: one is
	// saved, shown as KeyHint ("tvl…3f9a").
	NeedsKey bool   `json:"needsKey"`
	HasKey   bool   `json:"hasKey"`
	KeyHint  string `json:"keyHint,omitempty"`
	// NeedsURL: its address must be given (SearXNG); DefaultURL is the
	// hosted service's endpoint otherwise.
	NeedsURL   bool   `json:"needsUrl"`
	DefaultURL string `json:"defaultUrl,omitempty"`
}

// WebSearchInput is the Settings › Web form: the backend ("" turns web
// search off), its address, a new API key (empty keeps the saved one;
// ClearKey removes it) and the searches per session (0: the default).
type WebSearchInput struct {
	Backend        string `json:"backend"`
	URL            string `json:"url"`
	APIKey         string `json:"apiKey"`
	ClearKey       bool   `json:"clearKey"`
	PerSession     int    `json:"perSession"`
	ProviderSearch bool   `json:"providerSearch"`
}

// WebSearchTest is what one test search through the form's backend
// brought: the results, or Error, a sentence saying what is wrong.
type WebSearchTest struct {
	Query   string            `json:"query"`
	Results []WebSearchResult `json:"results"`
	Error   string            `json:"error,omitempty"`
}

// WebSearchResult is one search result.
type WebSearchResult struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
	Date    string `json:"date,omitempty"`
}

// Source is a page a text block cites: its title, address and the words
// quoted from it (all the provider's, shown as outside text).
type Source struct {
	Title string `json:"title"`
	URL   string `json:"url"`
	Cited string `json:"cited,omitempty"`
}
