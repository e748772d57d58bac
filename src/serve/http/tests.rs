use super::request::encoding_quality;
use super::*;

/// A view of three documents, last changed at 1,000,000,000 s.
fn view() -> View {
    let documents = [
        (
            "olm.package",
            "",
            "etcd",
            "{\"name\":\"etcd\",\"schema\":\"olm.package\"}\n",
        ),
        (
            "olm.channel",
            "etcd",
            "stable",
            "{\"name\":\"stable\",\"package\":\"etcd\",\"schema\":\"olm.channel\"}\n",
        ),
        (
            "olm.package",
            "",
            "other",
            "{\"name\":\"other\",\"schema\":\"olm.package\"}\n",
        ),
    ];
    let mut lines = Vec::new();
    let mut sections = Vec::new();
    for (schema, package, name, blob) in documents {
        sections.push(Section {
            start: lines.len() as u64,
            length: blob.len() as u64,
            schema: schema.into(),
            package: package.into(),
            name: name.into(),
        });
        lines.extend_from_slice(blob.as_bytes());
    }
    View {
        name: "operatorhubio".to_owned(),
        size: lines.len() as u64,
        lines: Store::Memory(lines),
        sections,
        modified: Some(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000)),
    }
}

const MODIFIED: &str = "Sun, 09 Sep 2001 01:46:40 GMT";

fn get(path: &str, headers: &[(&str, &str)]) -> Request {
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    Request {
        method: Method::Get,
        path: path.to_owned(),
        query: query.to_owned(),
        headers: headers
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect(),
    }
}

fn header<'r>(reply: &'r Reply, name: &str) -> Option<&'r str> {
    reply
        .headers
        .iter()
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.as_str())
}

/// The body, with the view's lines filled in.
fn body(view: &View, reply: &Reply) -> String {
    let pieces = &reply.pieces;
    let mut text = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Text(part) => text.extend_from_slice(part.as_bytes()),
            Piece::Lines(start, length) => {
                let mut buffer = vec![0; *length as usize];
                view.lines.read_at(*start, &mut buffer).expect("read");
                text.extend_from_slice(&buffer);
            }
        }
    }
    String::from_utf8(text).expect("UTF-8")
}

#[test]
fn all_is_every_line_with_the_headers_of_serve_content() {
    let view = view();
    let reply = view.answer(&get("/catalogs/operatorhubio/api/v1/all", &[]));
    assert_eq!(reply.status, 200);
    assert_eq!(header(&reply, "content-type"), Some("application/jsonl"));
    assert_eq!(header(&reply, "last-modified"), Some(MODIFIED));
    assert_eq!(header(&reply, "accept-ranges"), Some("bytes"));
    assert_eq!(header(&reply, "vary"), Some("Accept-Encoding"));
    assert_eq!(body(&view, &reply).lines().count(), 3);
    assert!(!reply.gzip);
    let gzipped = view.answer(&get(
        "/catalogs/operatorhubio/api/v1/all",
        &[("Accept-Encoding", "deflate, gzip;q=0.5")],
    ));
    assert!(gzipped.gzip);
    let refused = view.answer(&get(
        "/catalogs/operatorhubio/api/v1/all",
        &[("Accept-Encoding", "gzip;q=0")],
    ));
    assert!(!refused.gzip);
}

#[test]
fn conditional_requests_answer_304_and_412() {
    let view = view();
    let path = "/catalogs/operatorhubio/api/v1/all";
    for (name, value, status) in [
        ("If-Modified-Since", MODIFIED, 304),
        ("If-Modified-Since", "Sun, 09 Sep 2001 01:46:39 GMT", 200),
        ("If-Modified-Since", "not a date", 200),
        ("If-None-Match", "*", 304),
        ("If-None-Match", "\"abc\"", 200),
        ("If-Match", "\"abc\"", 412),
        ("If-Match", "*", 200),
        ("If-Unmodified-Since", "Sun, 09 Sep 2001 01:46:39 GMT", 412),
        ("If-Unmodified-Since", MODIFIED, 200),
    ] {
        let reply = view.answer(&get(path, &[(name, value)]));
        assert_eq!(reply.status, status, "{name}: {value}");
        if status == 304 {
            assert_eq!(header(&reply, "content-type"), None);
            assert_eq!(header(&reply, "last-modified"), Some(MODIFIED));
        }
    }
    // catalogd's own copy for /metas fails on a date it cannot read.
    let reply = view.answer(&get(
        "/catalogs/operatorhubio/api/v1/metas",
        &[("If-Modified-Since", "not a date")],
    ));
    assert_eq!(reply.status, 500);
}

#[test]
fn ranges_are_served_as_serve_content_serves_them() {
    let view = view();
    let path = "/catalogs/operatorhubio/api/v1/all";
    let size = view.size;
    let reply = view.answer(&get(path, &[("Range", "bytes=0-9")]));
    assert_eq!(reply.status, 206);
    assert_eq!(
        header(&reply, "content-range"),
        Some(format!("bytes 0-9/{size}").as_str())
    );
    assert_eq!(body(&view, &reply), "{\"name\":\"e");
    // A part is never compressed (gzhttp leaves responses with a Content-Range).
    let reply = view.answer(&get(
        path,
        &[("Range", "bytes=0-9"), ("Accept-Encoding", "gzip")],
    ));
    assert!(!reply.gzip);

    let reply = view.answer(&get(path, &[("Range", "bytes=-4")]));
    assert_eq!(body(&view, &reply), "e\"}\n");

    let reply = view.answer(&get(path, &[("Range", "bytes=0-1,-2")]));
    assert_eq!(reply.status, 206);
    let content_type = header(&reply, "content-type").expect("a type");
    let boundary = content_type
        .strip_prefix("multipart/byteranges; boundary=")
        .expect("multipart");
    assert_eq!(boundary.len(), 60);
    assert_eq!(
        body(&view, &reply),
        format!(
            "--{boundary}\r\nContent-Range: bytes 0-1/{size}\r\nContent-Type: application/jsonl\r\n\r\n{{\"\
             \r\n--{boundary}\r\nContent-Range: bytes {}-{}/{size}\r\nContent-Type: application/jsonl\r\n\r\n}}\n\
             \r\n--{boundary}--\r\n",
            size - 2,
            size - 1
        )
    );

    let reply = view.answer(&get(path, &[("Range", format!("bytes={size}-").as_str())]));
    assert_eq!(reply.status, 416);
    assert_eq!(
        header(&reply, "content-range"),
        Some(format!("bytes */{size}").as_str())
    );
    assert_eq!(body(&view, &reply), "invalid range: failed to overlap\n");
    let reply = view.answer(&get(path, &[("Range", "items=0-1")]));
    assert_eq!(
        (reply.status, body(&view, &reply).as_str()),
        (416, "invalid range\n")
    );
    // Ranges adding up to more than the content are ignored.
    let reply = view.answer(&get(path, &[("Range", "bytes=0-,0-")]));
    assert_eq!(reply.status, 200);
    // If-Range: the modification time keeps the range, anything else drops it.
    let reply = view.answer(&get(
        path,
        &[("Range", "bytes=0-1"), ("If-Range", MODIFIED)],
    ));
    assert_eq!(reply.status, 206);
    let reply = view.answer(&get(path, &[("Range", "bytes=0-1"), ("If-Range", "\"x\"")]));
    assert_eq!(reply.status, 200);
}

/// Files in fs.WalkDir's order (`a/` before `a-c`, unlike a sort of whole
/// paths), every document as Go re-encodes it, unknown fields kept.
#[test]
fn the_view_is_built_in_walk_order_as_go_writes_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::create_dir(dir.path().join("a")).expect("mkdir");
    std::fs::write(
        dir.path().join("a-c.json"),
        "{\"schema\":\"olm.package\",\"name\":\"second\",\"extra\":1.0}",
    )
    .expect("written");
    std::fs::write(
        dir.path().join("a/b.yaml"),
        "schema: my.schema\npackage: p\nname: first\nz: '<&>'\nb: [2, 1e3]\n---\nschema: olm.channel\npackage: p\nname: c\n",
    )
    .expect("written");
    let view = View::build(dir.path(), "test".to_owned()).expect("built");
    let reply = view.answer(&get("/catalogs/test/api/v1/all", &[]));
    assert_eq!(
        body(&view, &reply),
        "{\"b\":[2,1000],\"name\":\"first\",\"package\":\"p\",\"schema\":\"my.schema\",\"z\":\"<&>\"}\n\
         {\"name\":\"c\",\"package\":\"p\",\"schema\":\"olm.channel\"}\n\
         {\"extra\":1,\"name\":\"second\",\"schema\":\"olm.package\"}\n"
    );
    let reply = view.answer(&get("/catalogs/test/api/v1/metas?package=p&name=c", &[]));
    assert_eq!(
        body(&view, &reply),
        "{\"name\":\"c\",\"package\":\"p\",\"schema\":\"olm.channel\"}\n"
    );
    assert!(matches!(view.lines, Store::File(_)));
}

#[test]
fn go_range_parsing() {
    assert_eq!(parse_ranges("", 10), Ok(vec![]));
    assert_eq!(parse_ranges("bytes=2-4", 10), Ok(vec![(2, 3)]));
    assert_eq!(parse_ranges("bytes=2-40", 10), Ok(vec![(2, 8)]));
    assert_eq!(
        parse_ranges("bytes= 2 - , ,-3", 10),
        Ok(vec![(2, 8), (7, 3)])
    );
    assert_eq!(parse_ranges("bytes=-30", 10), Ok(vec![(0, 10)]));
    assert_eq!(parse_ranges("bytes=10-", 10), Err(RangeError::NoOverlap));
    assert_eq!(parse_ranges("bytes=10-,1-2", 10), Ok(vec![(1, 2)]));
    for invalid in [
        "bytes=4-2",
        "bytes=-",
        "bytes=--1",
        "bytes=a-",
        "bytes=1",
        "bytes=-1-2",
    ] {
        assert_eq!(
            parse_ranges(invalid, 10),
            Err(RangeError::Invalid),
            "{invalid}"
        );
    }
}

#[test]
fn metas_select_by_every_parameter_given() {
    let view = view();
    let names = |query: &str| {
        let reply = view.answer(&get(
            &format!("/catalogs/operatorhubio/api/v1/metas{query}"),
            &[],
        ));
        assert_eq!(reply.status, 200, "{query}");
        assert_eq!(header(&reply, "last-modified"), Some(MODIFIED));
        body(&view, &reply)
            .lines()
            .map(|line| {
                let value: serde_json::Value = serde_json::from_str(line).expect("JSON");
                value["name"].as_str().unwrap_or("").to_owned()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(names(""), ["etcd", "stable", "other"]);
    assert_eq!(names("?schema=olm.package"), ["etcd", "other"]);
    assert_eq!(names("?schema=olm.package&name=other"), ["other"]);
    assert_eq!(names("?package=etcd"), ["stable"]);
    assert_eq!(names("?schema=&package="), ["etcd", "stable", "other"]);
    assert_eq!(names("?name=%65tcd"), ["etcd"]);
    assert_eq!(names("?package=nothing"), Vec::<String>::new());
    let reply = view.answer(&get(
        "/catalogs/operatorhubio/api/v1/metas?schema=x&limit=1",
        &[],
    ));
    assert_eq!(
        (reply.status, body(&view, &reply).as_str()),
        (400, "400 Bad Request\n")
    );
}

#[test]
fn routes_methods_and_names_as_catalogd() {
    let view = view();
    let status = |method: Method, path: &str| {
        let mut request = get(path, &[]);
        request.method = method;
        let reply = view.answer(&request);
        (reply.status, body(&view, &reply))
    };
    assert_eq!(
        status(Method::Get, "/catalogs/operatorhubio/api/v1/graphql").0,
        404
    );
    assert_eq!(
        status(Method::Get, "/other"),
        (404, "404 page not found\n".to_owned())
    );
    assert_eq!(
        status(Method::Other, "/catalogs/operatorhubio/api/v1/all"),
        (405, "Method Not Allowed\n".to_owned())
    );
    assert_eq!(
        status(Method::Get, "/catalogs/elsewhere/api/v1/all"),
        (404, "404 Not Found\n".to_owned())
    );
    let (code, text) = status(Method::Get, "/catalogs/Upper_Case/api/v1/all");
    assert_eq!(code, 400);
    assert!(
        text.starts_with("invalid catalog name: a lowercase RFC 1123 subdomain must consist"),
        "{text}"
    );
    let (code, text) = status(
        Method::Get,
        &format!("/catalogs/{}/api/v1/all", "a".repeat(254)),
    );
    assert_eq!(code, 400);
    assert!(
        text.starts_with("invalid catalog name: must be no more than 253 characters\n"),
        "{text}"
    );
    let head = status(Method::Head, "/catalogs/operatorhubio/api/v1/all");
    assert_eq!(head.0, 200);
    assert!(
        view.answer(&{
            let mut request = get("/catalogs/operatorhubio/api/v1/all", &[]);
            request.method = Method::Head;
            request
        })
        .head
    );
}

#[test]
fn names_and_queries_are_read_as_go_reads_them() {
    assert!(dns1123_subdomain("operatorhubio").is_ok());
    assert!(dns1123_subdomain("a.b-c.d9").is_ok());
    for bad in ["", "-a", "a-", "a..b", "A", "a_b", ".a"] {
        assert!(dns1123_subdomain(bad).is_err(), "{bad}");
    }
    assert_eq!(
        parse_query("a=1&b&c=%zz&d=x;y&e=a+b%2B"),
        [
            ("a".to_owned(), "1".to_owned()),
            ("b".to_owned(), String::new()),
            ("e".to_owned(), "a b+".to_owned())
        ]
    );
    assert_eq!(
        route("/catalogs/a%2Fb/api/v1/all"),
        Some(("a/b".to_owned(), Endpoint::All))
    );
    assert_eq!(route("/catalogs//api/v1/all"), None);
    assert_eq!(route("/catalogs/x/api/v1/all/"), None);
    assert!((encoding_quality("br, *;q=0.3", "gzip") - 0.3).abs() < 1e-6);
    assert!((encoding_quality("GZIP", "gzip") - 1.0).abs() < 1e-6);
    assert!(encoding_quality("br", "gzip") <= 0.0);
}
