package cli

import (
	"context"
	"errors"
	"fmt"

	"pilot/backend/cli/visible"
	"pilot/backend/service"
)

// mcpLogin runs `pilot mcp login NAME [--no-browser]`: the server's
// sign-in page opens in the browser ($BROWSER, else xdg-open) and its
// answer comes back to a one-time address on this machine; with
// --no-browser the address is only printed, and the user pastes the
// address the browser was sent back to.
func mcpLogin(ctx context.Context, svc *service.Service, project string, a mcpArgs, tio IO) error {
	l, err := svc.MCP.SignInIn(project, a.name)
	if err != nil {
		return err
	}
	l.Show = func(u string) {
		fmt.Fprintf(tio.Stdout, "Sign in to %s at this address:\n\n  %s\n\n", a.name, visible.Line(u))
		if a.noBrowser {
			fmt.Fprintln(tio.Stdout, "Then paste here the address your browser was sent back to (it starts with http://127.0.0.1 or http://localhost and holds ?code=):")
		} else {
			fmt.Fprintln(tio.Stdout, "Waiting for the browser to come back…")
		}
	}
	if a.noBrowser {
		l.Paste = tio.Stdin
	} else {
		l.Open = func(u string) {
			if err := svc.MCP.Browse(u); err != nil {
				fmt.Fprintf(tio.Stderr, "Could not open a browser (%v): open the address above yourself, or run again with --no-browser.\n", err)
			}
		}
	}
	st, err := l.Run(ctx)
	if err != nil {
		return errors.New(visible.Line(err.Error())) // it may quote the server's answers
	}
	fmt.Fprintf(tio.Stdout, "Signed in to %s: %s. Its tokens are kept in PILOT_HOME/mcp-tokens.json.\n", a.name, st.Describe())
	return nil
}

// mcpLogout runs `pilot mcp logout NAME`.
func mcpLogout(svc *service.Service, project string, a mcpArgs, tio IO) error {
	had, err := svc.MCP.SignOutIn(project, a.name)
	if err != nil {
		return err
	}
	if !had {
		fmt.Fprintf(tio.Stdout, "%s had no sign-in kept: nothing to forget.\n", a.name)
		return nil
	}
	fmt.Fprintf(tio.Stdout, "Signed out of %s: its tokens are forgotten (the server may still hold the grant; revoke it on the service's own page if you want it gone there too).\n", a.name)
	return nil
}
