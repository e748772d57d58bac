#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fbc::fuzzing::catalog_file(data));
