package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Image is an image a tool returned: its media type and bytes.
type Image struct {
	MediaType string
	Data      []byte
}

// Result is a tool call's outcome: text for the model, images, and
// whether the server called it an error (the model's to handle).
type Result struct {
	Text    string
	Images  []Image
	IsError bool
}

func convert(r *sdk.CallToolResult) Result {
	var parts []string
	out := Result{IsError: r.IsError}
	for _, c := range r.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			out.Images = append(out.Images, Image{MediaType: c.MIMEType, Data: c.Data})
			parts = append(parts, fmt.Sprintf("[image %s, %d bytes, attached]", c.MIMEType, len(c.Data)))
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %d bytes, not shown]", c.MIMEType, len(c.Data)))
		case *sdk.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s %s]", c.URI, c.Name))
		case *sdk.EmbeddedResource:
			if c.Resource == nil {
				continue
			}
			if c.Resource.Text != "" {
				parts = append(parts, c.Resource.Text)
			} else {
				parts = append(parts, fmt.Sprintf("[resource %s, %s, %d bytes, not shown]", c.Resource.URI, c.Resource.MIMEType, len(c.Resource.Blob)))
			}
		}
	}
	if len(parts) == 0 && r.StructuredContent != nil {
		if b, err := json.Marshal(r.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	out.Text = strings.Join(parts, "\n")
	return out
}
