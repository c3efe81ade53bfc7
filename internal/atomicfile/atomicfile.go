// Package atomicfile writes files so that readers never see a half-written
// one: the content goes to a temporary file in the same folder, is synced,
// and is renamed over the target (rename is atomic within a file system on
// POSIX systems). A failed write leaves the previous file, if any, intact
// and removes the temporary file.
//
// A target that exists and is not a regular file (/dev/stdout, a named
// pipe) cannot be replaced by a rename: it is written directly.
package atomicfile

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write creates or replaces the file at path with what write writes, with
// permissions perm (before the umask, as os.WriteFile). The writer is
// buffered.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		return writeDirect(path, write)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, tmp, err := create(dir, base, perm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 64<<10)
	if err = write(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// WriteFile is Write for a byte slice, like os.WriteFile.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// create makes a new, exclusive temporary file beside the target. Unlike
// os.CreateTemp (always 0600) it opens with perm, so the umask applies as
// for a plain create.
func create(dir, base string, perm fs.FileMode) (*os.File, string, error) {
	for range 100 {
		var r [6]byte
		if _, err := rand.Read(r[:]); err != nil {
			return nil, "", err
		}
		tmp := filepath.Join(dir, "."+base+"."+hex.EncodeToString(r[:])+".tmp")
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, tmp, err
	}
	return nil, "", &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, "."+base+".*.tmp"), Err: fs.ErrExist}
}

// writeDirect writes to a target that is not a regular file.
func writeDirect(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
