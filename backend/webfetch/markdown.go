package webfetch

import (
	"context"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
)

// conv turns HTML into CommonMark with tables; base drops script, style,
// iframe and other tags without readable content.
var conv = converter.NewConverter(converter.WithPlugins(
	base.NewBasePlugin(),
	commonmark.NewCommonmarkPlugin(),
	table.NewTablePlugin(),
))

// noise are elements around the content that only take room: menus,
// page footers, forms (headers stay: an article's title is often in one).
var noise = map[string]bool{"nav": true, "footer": true, "form": true, "aside": true, "noscript": true, "svg": true, "button": true}

// toMarkdown returns the page's title and its body as Markdown, with
// links made absolute against pageURL.
func toMarkdown(ctx context.Context, text, pageURL string) (string, string, error) {
	doc, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return "", "", err
	}
	title := ""
	var prune func(n *html.Node)
	prune = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.ElementNode {
				if c.Data == "title" && title == "" && c.FirstChild != nil {
					title = strings.Join(strings.Fields(c.FirstChild.Data), " ")
				}
				if noise[c.Data] {
					n.RemoveChild(c)
					c = next
					continue
				}
			}
			prune(c)
			c = next
		}
	}
	prune(doc)
	md, err := conv.ConvertNode(doc, converter.WithContext(ctx), converter.WithDomain(pageURL))
	if err != nil {
		return title, "", err
	}
	return title, strings.TrimSpace(string(md)), nil
}
