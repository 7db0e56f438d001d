package cliparse

import (
	"net"
	"os"
	"strings"
	"time"

	"solcat/cmd/solcat/advice"
)

// ServeFlags are serve's flags: where it listens, who may ask, and its
// limits of time and of work at once.
type ServeFlags struct {
	Addr            string        `default:"127.0.0.1:8765" placeholder:"HOST:PORT" help:"Address to listen on; one that is not loopback needs --public."`
	Public          bool          `help:"Allow an --addr that other machines can reach; requests may then name this server by an IP address or this machine's name."`
	AllowedHost     []string      `name:"allowed-host" placeholder:"NAME" help:"Another name requests may give in their Host header (repeatable; '*' allows any). Without it only localhost and loopback addresses are answered (with --public also IP addresses and this machine's name)."`
	Timeout         time.Duration `default:"30s" help:"Time limit of each page, waiting for its turn included."`
	Concurrent      int           `default:"0" help:"Goroutines that scan for pages, or read pieces of downloads, at once (default: one fewer than the cores, at least 1); more wait. Pages that need no scan never wait for them."`
	Downloads       int           `default:"0" help:"Downloads at once (default: two per core); more wait for a slot, up to --timeout. Downloads never take a page's slot."`
	DownloadTimeout time.Duration `default:"10m" help:"Time limit of each download (CSV, JSON lines, Parquet)."`
	ClientTimeout   time.Duration `default:"30s" help:"A client that sends no request, or reads nothing of an answer, for this long is cut off."`
}

// Hosts checks the flags and gives the names requests may give in their
// Host header beside localhost and loopback addresses.
func (s ServeFlags) Hosts() ([]string, error) {
	usagef := advice.Usagef
	host, port, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return nil, usagef("--addr %s: write HOST:PORT, for example 127.0.0.1:8765", s.Addr)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return nil, usagef("--addr %s: the port is a number from 0 to 65535; write HOST:PORT, for example 127.0.0.1:8765", s.Addr)
	}
	if ip := net.ParseIP(host); !s.Public && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, usagef("--addr %s can be reached from other machines; add --public to serve there, or use 127.0.0.1", s.Addr)
	}
	switch {
	case s.Timeout <= 0:
		return nil, usagef("--timeout %s is not positive; give a duration such as 30s or 2m", s.Timeout)
	case s.DownloadTimeout <= 0:
		return nil, usagef("--download-timeout %s is not positive; give a duration such as 10m", s.DownloadTimeout)
	case s.ClientTimeout <= 0:
		return nil, usagef("--client-timeout %s is not positive; give a duration such as 30s", s.ClientTimeout)
	case s.Concurrent < 0:
		return nil, usagef("--concurrent %d is negative; give 1 or more, or 0 for one fewer than the cores", s.Concurrent)
	case s.Downloads < 0:
		return nil, usagef("--downloads %d is negative; give 1 or more, or 0 for two per core", s.Downloads)
	}
	for _, name := range s.AllowedHost {
		if name == "" || strings.ContainsAny(name, "/ ") {
			return nil, usagef("--allowed-host %q is not a host name; give a name such as solcat.example.org, or '*' for any", name)
		}
	}
	hosts := s.AllowedHost
	if s.Public {
		if name, err := os.Hostname(); err == nil && name != "" {
			hosts = append(hosts, name)
		}
	}
	return hosts, nil
}
