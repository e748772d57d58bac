//! Finding catalog files and decoding them into located blobs, as opm's `LoadFS` does.
mod yaml;
