package main

import "pilot/backend/wire"

// GetWebSearch returns Settings › Web: the search service web_search
// uses, and every backend with whether its key is saved.
func (a *App) GetWebSearch() (wire.WebSearchView, error) {
	return a.ws().Web.Get()
}

// SaveWebSearch checks and saves Settings › Web (the key goes to the key
// store) and returns what is saved.
func (a *App) SaveWebSearch(in wire.WebSearchInput) (wire.WebSearchView, error) {
	return a.ws().Web.Save(in)
}

// TestWebSearch sends one search through the form's backend and says
// what came back, or in a sentence what is wrong.
func (a *App) TestWebSearch(in wire.WebSearchInput) wire.WebSearchTest {
	return a.ws().Web.Test(a.ctx, in)
}
