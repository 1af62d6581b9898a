package ledger

import "sync"

// contentCache keeps the most recently stored or read contents, up to max
// bytes in all, so that storing the next version of a file does not rebuild
// the previous one through its chain of deltas.
type contentCache struct {
	mu    sync.Mutex
	max   int
	used  int
	order []string
	data  map[string][]byte
}

func (c *contentCache) get(hash string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.data[hash]
	return d, ok
}

func (c *contentCache) put(hash string, data []byte) {
	if len(data) > c.max/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.data == nil {
		c.data = map[string][]byte{}
	}
	if _, ok := c.data[hash]; ok {
		return
	}
	c.data[hash] = data
	c.order = append(c.order, hash)
	c.used += len(data)
	for c.used > c.max && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.used -= len(c.data[old])
		delete(c.data, old)
	}
}

func (c *contentCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.data, c.order, c.used = nil, nil, 0
}
