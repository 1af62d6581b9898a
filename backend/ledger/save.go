package ledger

import "sync"

// saver writes a project's last scan to its manifest file in the
// background: a command's checkpoint does not wait for it (7 MB on a
// 100,000-file project), and a scan newer than one still waiting replaces
// it. The manifest only spares a restarted Pilot from reading every file
// again, so one not written yet costs time after a crash, never a change.
type saver struct {
	mu      sync.Mutex
	next    *manifest // waiting to be written
	saved   *manifest // last written
	running bool
}

// saveLater has m written to p's manifest file. Scans are never changed
// once made, so m can be written while the next scan runs.
func (t *Trees) saveLater(p *project, m *manifest) {
	p.sv.mu.Lock()
	defer p.sv.mu.Unlock()
	if m == p.sv.saved || m == p.sv.next {
		return
	}
	p.sv.next = m
	if !p.sv.running {
		p.sv.running = true
		t.saves.Go(func() { t.saveLoop(p) })
	}
}

func (t *Trees) saveLoop(p *project) {
	for {
		p.sv.mu.Lock()
		m := p.sv.next
		p.sv.next = nil
		if m == nil {
			p.sv.running = false
			p.sv.mu.Unlock()
			return
		}
		p.sv.mu.Unlock()
		if err := m.save(p.path); err != nil {
			t.log.Warn("saving a project's scan; the next start reads its files again", "project", m.root, "err", err)
			continue
		}
		p.sv.mu.Lock()
		p.sv.saved = m
		p.sv.mu.Unlock()
	}
}
