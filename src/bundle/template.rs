//! `--image-ref-template`: the small part of Go's `text/template` opm's flag is used
//! with. Text is copied; `{{.Package}}`, `{{.Name}}` and `{{.Version}}` are replaced
//! (spaces and `{{-`/`-}}` trim markers allowed); errors read as Go's.

const NAME: &str = "image-ref-template";

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    /// A field reference and its byte offset in the template, for error positions.
    Field {
        name: String,
        offset: usize,
    },
}

/// A parsed image reference template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ImageTemplate {
    source: String,
    pieces: Vec<Piece>,
}

/// The values a template can refer to.
pub(crate) struct TemplateData<'a> {
    pub(crate) package: &'a str,
    pub(crate) name: &'a str,
    pub(crate) version: &'a str,
}

impl ImageTemplate {
    /// Parses a template; the error reads as Go's parse error.
    pub(crate) fn parse(source: &str) -> Result<Self, String> {
        let mut pieces = Vec::new();
        let mut rest = 0;
        let mut text = String::new();
        while let Some(found) = source[rest..].find("{{") {
            let open = rest + found;
            text.push_str(&source[rest..open]);
            let line = 1 + source[..open].matches('\n').count();
            let Some(length) = source[open + 2..].find("}}") else {
                return Err(format!("template: {NAME}:{line}: unclosed action"));
            };
            let close = open + 2 + length;
            let mut inner_start = open + 2;
            let mut inner_end = close;
            if source[inner_start..inner_end].starts_with("- ") {
                inner_start += 1;
                text.truncate(text.trim_end().len());
            }
            let trim_after = source[inner_start..inner_end].ends_with(" -");
            if trim_after {
                inner_end -= 1;
            }
            let inner = &source[inner_start..inner_end];
            let offset = inner_start + (inner.len() - inner.trim_start().len());
            let command = inner.trim();
            if !(command.starts_with("/*") && command.ends_with("*/")) {
                pieces.push(Piece::Text(std::mem::take(&mut text)));
                pieces.push(parse_command(command, offset, line)?);
            }
            rest = close + 2;
            if trim_after {
                rest += source[rest..].len() - source[rest..].trim_start().len();
            }
        }
        text.push_str(&source[rest..]);
        pieces.push(Piece::Text(text));
        pieces.retain(|piece| !matches!(piece, Piece::Text(text) if text.is_empty()));
        Ok(ImageTemplate {
            source: source.to_owned(),
            pieces,
        })
    }

    /// Fills the template in; the error reads as Go's execution error.
    pub(crate) fn execute(&self, data: &TemplateData<'_>) -> Result<String, String> {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Field { name, offset } => out.push_str(match name.as_str() {
                    "Package" => data.package,
                    "Name" => data.name,
                    "Version" => data.version,
                    _ => {
                        let before = &self.source[..*offset];
                        let line = 1 + before.matches('\n').count();
                        let column = before
                            .rfind('\n')
                            .map_or(*offset, |newline| offset - newline - 1);
                        return Err(format!(
                            "template: {NAME}:{line}:{column}: executing \"{NAME}\" at <.{name}>: \
                             can't evaluate field {name} in type action.imageReferenceTemplateData"
                        ));
                    }
                }),
            }
        }
        Ok(out)
    }
}

fn parse_command(command: &str, offset: usize, line: usize) -> Result<Piece, String> {
    if command.is_empty() {
        return Err(format!(
            "template: {NAME}:{line}: missing value for command"
        ));
    }
    if let Some(name) = command.strip_prefix('.')
        && !name.is_empty()
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
    {
        return Ok(Piece::Field {
            name: name.to_owned(),
            offset,
        });
    }
    let word: String = command
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if !word.is_empty() && command.chars().next().is_some_and(char::is_alphabetic) {
        return Err(format!(
            "template: {NAME}:{line}: function \"{word}\" not defined"
        ));
    }
    Err(format!(
        "template: {NAME}:{line}: unsupported action {}: only {{{{.Package}}}}, {{{{.Name}}}} and {{{{.Version}}}} are known",
        crate::go::fmt::quote(command)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATA: TemplateData<'static> = TemplateData {
        package: "etcd",
        name: "etcdoperator.v0.9.4",
        version: "0.9.4",
    };

    #[test]
    fn fills_in_fields() {
        let template =
            ImageTemplate::parse("example.com/{{.Package}}:v{{ .Version }}").expect("parses");
        assert_eq!(
            template.execute(&DATA),
            Ok("example.com/etcd:v0.9.4".to_owned())
        );
        let template = ImageTemplate::parse("a {{- .Name -}} b{{/* note */}}").expect("parses");
        assert_eq!(
            template.execute(&DATA),
            Ok("aetcdoperator.v0.9.4b".to_owned())
        );
    }

    #[test]
    fn errors_read_as_go() {
        assert_eq!(
            ImageTemplate::parse("x{{.Package"),
            Err("template: image-ref-template:1: unclosed action".to_owned())
        );
        assert_eq!(
            ImageTemplate::parse("{{foo}}"),
            Err("template: image-ref-template:1: function \"foo\" not defined".to_owned())
        );
        let template = ImageTemplate::parse("x/{{.Foo}}").expect("parses");
        assert_eq!(
            template.execute(&DATA),
            Err(
                "template: image-ref-template:1:4: executing \"image-ref-template\" at <.Foo>: \
                 can't evaluate field Foo in type action.imageReferenceTemplateData"
                    .to_owned()
            )
        );
    }
}
