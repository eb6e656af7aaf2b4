package at1

func (c *config) qcolStreamsOf(t *table) []namedStream { return nil }

func (c *config) qjsonStreamsOf(src []byte) []namedStream { return nil }
