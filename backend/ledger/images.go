package ledger

import (
	"fmt"

	"pilot/backend/llm"
)

// PutImage stores an image (a user's, or one a tool returned) in the blob
// store and returns its hash. The image is kept from sweeps until release
// is called, which the caller does once a message refers to it (after
// that, Sweep finds it in the messages: store.ImageHashes).
func (l *Ledger) PutImage(data []byte) (hash string, release func(), err error) {
	if _, ok := llm.SniffImage(data); !ok {
		return "", nil, fmt.Errorf("not a PNG, JPEG, GIF or WebP image")
	}
	l.gc.RLock() // no sweep between storing and pinning
	defer l.gc.RUnlock()
	hash, err = l.blobs.Put(data, "")
	if err != nil {
		return "", nil, err
	}
	l.mu.Lock()
	if l.pinned == nil {
		l.pinned = map[string]int{}
	}
	l.pinned[hash]++
	l.mu.Unlock()
	var once bool
	return hash, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if once {
			return
		}
		once = true
		if l.pinned[hash]--; l.pinned[hash] <= 0 {
			delete(l.pinned, hash)
		}
	}, nil
}

// Image returns a stored image and its media type; an object that is not
// an image is refused (this serves images, not the project's files).
func (l *Ledger) Image(hash string) (data []byte, mediaType string, err error) {
	data, err = l.blobs.Get(hash)
	if err != nil {
		return nil, "", err
	}
	mediaType, ok := llm.SniffImage(data)
	if !ok {
		return nil, "", fmt.Errorf("%s is not a stored image", hash)
	}
	return data, mediaType, nil
}

// liveImages adds the images messages refer to, and those pinned, to live.
func (l *Ledger) liveImages(live map[string]bool, hashes []string) {
	for _, h := range hashes {
		live[h] = true
	}
	l.mu.Lock()
	for h := range l.pinned {
		live[h] = true
	}
	l.mu.Unlock()
}
