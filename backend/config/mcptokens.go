package config

import (
	"errors"
	"path/filepath"
	"time"

	"pilot/backend/childenv"
)

// MCPTokensFile holds the MCP servers' sign-ins, beside keys.json and kept
// the same way: mode 0600, never in settings.json, the database or logs.
const MCPTokensFile = "mcp-tokens.json"

// MCPToken is one MCP server's sign-in: the OAuth tokens and what
// refreshing them needs (the client the authorization server knows, its
// token endpoint, and the resource the tokens are for).
type MCPToken struct {
	URL          string    `json:"url"` // the server's, for the reader of the file
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	Scopes       []string  `json:"scopes,omitempty"`
	ClientID     string    `json:"client_id"`
	ClientSecret string    `json:"client_secret,omitempty"`
	TokenURL     string    `json:"token_url"`
	AuthStyle    int       `json:"auth_style,omitempty"` // oauth2.AuthStyle
	Resource     string    `json:"resource,omitempty"`
	// Wanted are scopes the server asked for beyond those granted (its
	// 403 insufficient_scope): the next sign-in asks for them too.
	Wanted []string `json:"wanted_scopes,omitempty"`
}

// LoadMCPTokens reads <home>/mcp-tokens.json, keyed as the caller saved
// them; a missing file gives none. A file readable by others is made
// private (0600) again, and every token is held (childenv.Hold) so no
// program Pilot starts gets one.
func LoadMCPTokens(home string) (map[string]MCPToken, error) {
	path := filepath.Join(home, MCPTokensFile)
	if err := fixMode(path); err != nil {
		return map[string]MCPToken{}, err
	}
	t := map[string]MCPToken{}
	if err := readJSON(path, &t); err != nil {
		return map[string]MCPToken{}, err
	}
	for _, v := range t {
		childenv.Hold(v.AccessToken, v.RefreshToken, v.ClientSecret)
	}
	return t, nil
}

// SaveMCPToken stores tok under key in <home>/mcp-tokens.json with mode
// 0600; nil removes it.
func SaveMCPToken(home, key string, tok *MCPToken) error {
	all, err := LoadMCPTokens(home)
	if err != nil && !errors.Is(err, ErrCorrupt) {
		return err // a corrupt file is moved aside by writeJSON
	}
	if tok == nil {
		delete(all, key)
	} else {
		all[key] = *tok
		childenv.Hold(tok.AccessToken, tok.RefreshToken, tok.ClientSecret)
	}
	path := filepath.Join(home, MCPTokensFile)
	if err := writeJSON(path, all, 0o600); err != nil {
		return err
	}
	return fixMode(path)
}
