package websearch

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// braveRequest: GET the web search endpoint with the key in
// X-Subscription-Token (https://api-dashboard.search.brave.com/docs).
// Brave has no domain parameter: the sites go into the query as site:
// operators, which its index understands.
func braveRequest(ctx context.Context, u *url.URL, key string, q Query) (*http.Request, error) {
	v := url.Values{"q": {withSites(q)}, "count": {strconv.Itoa(q.Count)}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, withQuery(u, v), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Subscription-Token", key)
	return req, nil
}

// braveResults reads WebSearchApiResponse's web.results.
func braveResults(body []byte) ([]Result, error) {
	var a struct {
		Web *struct {
			Results []struct {
				Title       string `json:"title"`
				URL         string `json:"url"`
				Description string `json:"description"`
				Age         string `json:"age"`
				PageAge     string `json:"page_age"`
			} `json:"results"`
		} `json:"web"`
		Type string `json:"type"`
	}
	if err := decode(body, &a); err != nil {
		return nil, err
	}
	if a.Web == nil {
		if a.Type != "search" {
			return nil, errNotSearch
		}
		return nil, nil // a search with no web results
	}
	out := make([]Result, 0, len(a.Web.Results))
	for _, r := range a.Web.Results {
		out = append(out, result(r.Title, r.URL, r.Description, cmp.Or(r.PageAge, r.Age)))
	}
	return out, nil
}

// tavilyRequest: POST the search endpoint a JSON body, the key as a
// bearer token (https://docs.tavily.com/documentation/api-reference/endpoint/search).
func tavilyRequest(ctx context.Context, u *url.URL, key string, q Query) (*http.Request, error) {
	body, err := json.Marshal(struct {
		Query          string   `json:"query"`
		MaxResults     int      `json:"max_results"`
		IncludeDomains []string `json:"include_domains,omitempty"`
	}{q.Text, q.Count, q.Domains})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	return req, nil
}

// searxngRequest: GET <instance>/search?q=…&format=json
// (https://docs.searxng.org/dev/search_api.html); the instance must allow
// the json format (search.formats in its settings.yml).
func searxngRequest(ctx context.Context, u *url.URL, q Query) (*http.Request, error) {
	base := *u
	if !strings.HasSuffix(base.Path, "/search") {
		base.Path = strings.TrimRight(base.Path, "/") + "/search"
	}
	v := url.Values{"q": {withSites(q)}, "format": {"json"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, withQuery(&base, v), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	return req, nil
}

// listResults reads the results of Tavily's and SearXNG's answers:
// results[] with title, url and content, and the date as Tavily
// (published_date, only for the news topic) or SearXNG (publishedDate,
// null when no engine gave one) names it.
func listResults(body []byte) ([]Result, error) {
	var a struct {
		Results *[]struct {
			Title   string  `json:"title"`
			URL     string  `json:"url"`
			Content string  `json:"content"`
			Tavily  string  `json:"published_date"`
			SearXNG *string `json:"publishedDate"`
		} `json:"results"`
	}
	if err := decode(body, &a); err != nil {
		return nil, err
	}
	if a.Results == nil {
		return nil, errNotSearch
	}
	out := make([]Result, 0, len(*a.Results))
	for _, r := range *a.Results {
		date := r.Tavily
		if r.SearXNG != nil {
			date = *r.SearXNG
		}
		out = append(out, result(r.Title, r.URL, r.Content, date))
	}
	return out, nil
}

// withSites is the query with its domains as site: operators.
func withSites(q Query) string {
	var sites []string
	for _, d := range q.Domains {
		if d = strings.TrimSpace(d); d != "" {
			sites = append(sites, "site:"+d)
		}
	}
	switch len(sites) {
	case 0:
		return q.Text
	case 1:
		return q.Text + " " + sites[0]
	}
	return q.Text + " (" + strings.Join(sites, " OR ") + ")"
}

// withQuery is u with v added to its query.
func withQuery(u *url.URL, v url.Values) string {
	c := *u
	all := c.Query()
	for k, vs := range v {
		all[k] = vs
	}
	c.RawQuery = all.Encode()
	return c.String()
}

var tags = regexp.MustCompile(`<[^>]*>`)

// result is one hit in plain text: the services mark matches with HTML
// (Brave's <strong>) and escape entities.
func result(title, link, snippet, date string) Result {
	return Result{Title: plain(title), URL: strings.TrimSpace(link), Snippet: plain(snippet), Date: strings.TrimSpace(date)}
}

func plain(s string) string {
	return strings.Join(strings.Fields(html.UnescapeString(tags.ReplaceAllString(s, ""))), " ")
}
