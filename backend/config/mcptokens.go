package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"pilot/backend/childenv"
	"pilot/backend/flock"
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
// 0600; nil removes it. Another Pilot's save in between is kept (the
// file is read and written under its lock).
func SaveMCPToken(home, key string, tok *MCPToken) error {
	_, err := UpdateMCPToken(home, key, func(MCPToken) (*MCPToken, bool, error) { return tok, true, nil })
	return err
}

// UpdateMCPToken calls update with the token kept under key now, holding
// the file's lock (mcp-tokens.json.lock) so no other Pilot reads or
// writes the tokens meanwhile: a renewal that another process already
// made is seen there and adopted, not made twice with a refresh token
// the first one used up. When save is true, next replaces the kept token
// (nil removes it). It returns the token kept after.
func UpdateMCPToken(home, key string, update func(kept MCPToken) (next *MCPToken, save bool, err error)) (MCPToken, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return MCPToken{}, err
	}
	unlock, err := flock.Hold(filepath.Join(home, MCPTokensFile+".lock"))
	if err != nil {
		return MCPToken{}, fmt.Errorf("locking the MCP sign-ins (%s): %w", MCPTokensFile, err)
	}
	defer unlock()
	all, err := LoadMCPTokens(home)
	if err != nil && !errors.Is(err, ErrCorrupt) {
		return MCPToken{}, err // a corrupt file is moved aside by writeJSON
	}
	next, save, err := update(all[key])
	if err != nil || !save {
		return all[key], err
	}
	if next == nil {
		delete(all, key)
	} else {
		all[key] = *next
		childenv.Hold(next.AccessToken, next.RefreshToken, next.ClientSecret)
	}
	path := filepath.Join(home, MCPTokensFile)
	if err := writeJSON(path, all, 0o600); err != nil {
		return MCPToken{}, err
	}
	if err := fixMode(path); err != nil {
		return MCPToken{}, err
	}
	return all[key], nil
}
