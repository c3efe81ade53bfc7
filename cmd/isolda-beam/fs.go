package main

// The file systems linked in, besides local paths and gs:// (linked by
// Beam's fileio): s3://, with the AWS SDK's default credentials chain
// (environment, shared files, instance or task roles) on every worker.
import _ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
