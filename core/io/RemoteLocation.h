#pragma once

#include <QString>

namespace ts {

// What the core knows of a location that is a URL, with Qt Core alone: whether it is one, how to
// name it without its credentials, and where its siblings are. Reading it is a SourceOpener's
// business (tensorscope_remote), which the core does not link.
namespace RemoteLocation {

// True for http:// and https:// URLs (case-insensitive scheme); everything else is a local path.
bool isRemote(const QString& location);
// The URL for messages, recent files and reports: without a user name or password. A token never
// is in a URL (it travels in a header), so this is the only credential to take out.
QString redacted(const QString& location);
// The last path segment, percent-decoded: "model.safetensors" for
// https://host/org/repo/resolve/main/model.safetensors?download=true.
QString fileName(const QString& location);
// The name of the folder a file is in, as a tab names an index: the repository for a Hugging Face
// URL (/ORG/REPO/resolve/REV/FILE), the parent path segment otherwise, or the host.
QString folderName(const QString& location);
// The URL of `name` in the same folder as `location` (its query and fragment dropped), as an index
// names its shards. `name` is a plain file name (ShardIndex::parse refuses anything else).
QString sibling(const QString& location, const QString& name);
// A Hugging Face page URL (https://huggingface.co/ORG/REPO/blob/main/model.safetensors) as the
// URL of its bytes (.../resolve/main/...); any other location as it is.
QString normalized(const QString& location);
// Whether the path of the URL ends in ".json" (a shard index), ignoring the query.
bool isIndex(const QString& location);

} // namespace RemoteLocation

} // namespace ts
