package server

import (
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// Listener returns ln refusing, before any HTTP, the connections of a
// client that is back before the Retry-After of its last refusal (the
// clients admission.early refuses): such a connection gets a pre-written
// 429 with Retry-After a second later (refuseDelay) and is closed without
// its request being parsed, and the comeback doubles the client's wait as
// a refused request does; beyond 256 such connections at once, the others
// are closed at once without an answer. A
// client that sends expensive requests in a loop, ignoring Retry-After,
// then costs the server an accepted connection and one write each, not the
// reading and parsing of a request. h must be a handler from New (else ln
// is returned as is); the connections it lets through are served as before.
func Listener(h http.Handler, ln net.Listener) net.Listener {
	s, ok := h.(*server)
	if !ok {
		return ln
	}
	return &guardedListener{Listener: ln, adm: s.adm}
}

// maxRefusing bounds the refused connections being answered at once;
// beyond it a refused connection is closed without an answer.
const maxRefusing = 256

// refuseDelay is how long a refused connection waits, unread, before its
// 429 is written: a client that loops without waiting for Retry-After then
// sends at most one request a second per connection it opens at once,
// whereas an immediate answer let each of them loop hundreds of times a
// second, each connection costing the server its accept, its goroutine and
// its writes. refuseLinger bounds how long the connection is kept open
// after that for the 429 to reach the client; refuseDrain bounds the
// request bytes read (and dropped) meanwhile, so that closing does not
// reset the connection before the client read the answer.
const (
	refuseDelay  = time.Second
	refuseLinger = time.Second
	refuseDrain  = 64 << 10
)

type guardedListener struct {
	net.Listener
	adm      *admission
	refusing atomic.Int32
}

// Accept returns the next connection of a client not in its back-off
// window, answering the others with 429 on the side, refuseDelay later.
func (l *guardedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return c, err
		}
		e := l.adm.early(clientOf(c.RemoteAddr().String()))
		if e == nil {
			return c, nil
		}
		l.adm.countConnRefusal()
		if l.refusing.Add(1) > maxRefusing {
			l.refusing.Add(-1)
			c.Close()
			continue
		}
		time.AfterFunc(refuseDelay, func() {
			defer l.refusing.Add(-1)
			refuseConn(c, e)
		})
	}
}

// refuseConn writes e as a whole HTTP/1.1 response on c and closes it,
// reading at most refuseDrain bytes of the request meanwhile.
func refuseConn(c net.Conn, e *apiError) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(refuseLinger))
	if _, err := c.Write(refusal(e)); err != nil {
		return
	}
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
	var buf [4096]byte
	for n := 0; n < refuseDrain; {
		k, err := c.Read(buf[:])
		n += k
		if err != nil {
			return
		}
	}
}

// refusal is the HTTP response of a refused connection, as writeError
// would write it.
func refusal(e *apiError) []byte {
	e.Msg = capMessage(e.Msg)
	body, _ := json.Marshal(e)
	body = append(body, '\n')
	b := make([]byte, 0, 256+len(body))
	b = append(b, "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n"...)
	if e.RetryAfter > 0 {
		b = append(b, "Retry-After: "...)
		b = strconv.AppendInt(b, int64(e.RetryAfter), 10)
		b = append(b, "\r\n"...)
	}
	b = append(b, "Content-Length: "...)
	b = strconv.AppendInt(b, int64(len(body)), 10)
	b = append(b, "\r\n\r\n"...)
	return append(b, body...)
}
