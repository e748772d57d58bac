//! Whether a property value's stored text certainly decodes into its Go type,
//! read straight from the text: no tree is built, nothing is copied. Catalogs are
//! valid far more often than not, and decoding every `olm.csv.metadata` and
//! `olm.bundle.object` into a tree only to find nothing wrong was a third of the
//! time `fbc serve` and `fbc validate` took on a community catalog. The answer is
//! one-sided: `false` (a mismatch, or anything this reader is unsure of, such as
//! a number it cannot place) sends the value to the exact decoder, which has Go's verdict and
//! message.

use super::{GoStruct, Known};
use crate::bundle::migrate::schema::{self, Kind};
use crate::codec::json_walk::{Member, Token, Walk};
use crate::model::go_decode::match_field_by;

/// Values nested deeper than this are left to the exact decoder.
const MAX_DEPTH: usize = 128;

/// Whether `text` (one JSON value) decodes into `known`'s type without error.
pub(super) fn fits(known: &Known, text: &str) -> bool {
    let mut walk = Walk::new(text);
    Shape::of(known).fits(&mut walk, 0).is_some() && walk.end()
}

/// What a value must be.
#[derive(Clone, Copy)]
enum Shape {
    /// One of the small property structs, of string and `[]byte` fields.
    Small(&'static GoStruct),
    /// A field of the CSV types `olm.csv.metadata` is made of.
    Csv(Kind),
    /// A field of a small struct: a string or a `[]byte` (loading decoded every
    /// `olm.bundle.object`'s base64 already), so a string.
    SmallField,
}

impl Shape {
    fn of(known: &Known) -> Shape {
        match known {
            Known::Struct(go_struct) => Shape::Small(go_struct),
            Known::CsvMetadata => Shape::Csv(Kind::Struct(&schema::CSV_METADATA)),
        }
    }

    fn takes_strings(self) -> bool {
        matches!(
            self,
            Shape::Csv(Kind::Str | Kind::NamedStr(_)) | Shape::SmallField
        )
    }

    /// The shape of the field of a struct shape that a key named `key` decodes
    /// into (Go's matching), `None` for a key no field takes.
    fn field(self, key: &str) -> Option<Shape> {
        match self {
            Shape::Small(go_struct) => {
                match_field_by(key, go_struct.fields, |(name, _)| name).map(|_| Shape::SmallField)
            }
            Shape::Csv(Kind::Struct(schema)) => {
                match_field_by(key, schema.fields, |field| field.name)
                    .map(|field| Shape::Csv(field.kind))
            }
            Shape::Csv(Kind::StringMap) => Some(Shape::Csv(Kind::Str)),
            _ => None,
        }
    }

    /// Reads the next value of `walk`; `None` when it does not fit (or the walk
    /// is unsure).
    fn fits(self, walk: &mut Walk<'_>, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Shape::Csv(Kind::Raw) = self {
            // A `json.RawMessage` takes any JSON.
            return walk.skip();
        }
        let fits = match walk.value()? {
            // Null decodes into every Go type (a zero value or no change).
            Token::Null => true,
            Token::Str(_) => self.takes_strings(),
            Token::Bool(_) => matches!(self, Shape::Csv(Kind::Bool)),
            Token::Number(number) => {
                // Catalog numbers are float64: an integral one in range fits an
                // int32.
                let number: f64 = number.parse().ok()?;
                matches!(self, Shape::Csv(Kind::Int32))
                    && number.fract() == 0.0
                    && (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&number)
            }
            Token::Array => {
                let item = match self {
                    Shape::Csv(Kind::Strings) => Shape::Csv(Kind::Str),
                    Shape::Csv(Kind::List(schema)) => Shape::Csv(Kind::Struct(schema)),
                    _ => return None,
                };
                while walk.more()? {
                    item.fits(walk, depth + 1)?;
                }
                true
            }
            Token::Object => {
                if !matches!(
                    self,
                    Shape::Small(_) | Shape::Csv(Kind::Struct(_) | Kind::StringMap)
                ) {
                    return None;
                }
                while let Member::Key(key) = walk.key()? {
                    match self.field(&key.text()?) {
                        Some(shape) => shape.fits(walk, depth + 1)?,
                        None => walk.skip()?,
                    }
                }
                true
            }
        };
        fits.then_some(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::{known, parse};
    use super::fits;
    use crate::model::property::Property;

    /// `fits` never says yes where the exact decoder finds an error.
    fn agrees(kind: &str, value: &Value) -> bool {
        let known = known(kind).expect("a known type");
        let property = Property::new(kind, Some(value));
        let text = property.stored_text().expect("a loaded value");
        let fits = fits(&known, &text);
        let exact = parse(std::slice::from_ref(&property)).is_ok();
        assert!(!fits || exact, "{kind} {value}: fits but fails");
        fits
    }

    #[test]
    fn valid_values_fit() {
        let metadata = json!({
            "displayName": "x", "keywords": ["a", null], "labels": {"a": "b", "c": null},
            "provider": {"name": "p", "url": null}, "maturity": "alpha",
            "installModes": [{"type": "OwnNamespace", "supported": true}, null],
            "apiServiceDefinitions": {"owned": [{"name": "a", "containerPort": 8080,
                "specDescriptors": [{"path": "p", "value": {"any": [1, {"x": null}]}}]}]},
            "customresourcedefinitions": {"owned": [{"name": "c", "resources": []}]},
            "Annotations": {"k": "v"}, "unknown": {"deep": [true]}, "minKubeVersion": null
        });
        assert!(agrees("olm.csv.metadata", &metadata));
        assert!(agrees("olm.csv.metadata", &Value::Null));
        assert!(agrees(
            "olm.bundle.object",
            &json!({"data": "eyJ9", "x": 1})
        ));
        assert!(agrees(
            "olm.gvk",
            &json!({"group": "g", "Kind": "K", "version": null})
        ));
        assert!(agrees("olm.channel", &json!({"channelName": "c"})));
    }

    #[test]
    fn mismatches_do_not_fit() {
        let cases = [
            ("olm.csv.metadata", json!({"keywords": "a"})),
            ("olm.csv.metadata", json!({"labels": {"a": 1}})),
            ("olm.csv.metadata", json!({"provider": {"name": true}})),
            (
                "olm.csv.metadata",
                json!({"installModes": [{"supported": "yes"}]}),
            ),
            ("olm.csv.metadata", json!({"installModes": [5]})),
            (
                "olm.csv.metadata",
                json!({"apiServiceDefinitions": {"owned": [{"containerPort": 1.5}]}}),
            ),
            (
                "olm.csv.metadata",
                json!({"apiServiceDefinitions": {"owned": [{"containerPort": 1e10}]}}),
            ),
            ("olm.csv.metadata", json!([])),
            ("olm.csv.metadata", json!("x")),
            ("olm.bundle.object", json!({"DATA": 1})),
            ("olm.gvk", json!("x")),
            ("olm.gvk", json!({"group": {}})),
            ("olm.csv.metadata", json!({"displayName": {}})),
            ("olm.csv.metadata", json!({"keywords": {}})),
            ("olm.csv.metadata", json!({"labels": []})),
            ("olm.csv.metadata", json!({"installModes": {}})),
            ("olm.channel", json!({"channelName": []})),
        ];
        for (kind, value) in cases {
            assert!(!agrees(kind, &value), "{kind} {value}");
        }
    }

    #[test]
    fn integral_numbers_in_range_fit_int32() {
        for number in [json!(8080), json!(-5), json!(8080.0), json!(2_147_483_647)] {
            let value = json!({"apiServiceDefinitions": {"owned": [{"containerPort": number}]}});
            assert!(agrees("olm.csv.metadata", &value), "{number}");
        }
        let value =
            json!({"apiServiceDefinitions": {"owned": [{"containerPort": 2_147_483_648_u64}]}});
        assert!(!agrees("olm.csv.metadata", &value));
    }

    #[test]
    fn raw_values_take_any_json_however_deep() {
        let mut deep = json!(1);
        for _ in 0..200 {
            deep = json!([deep, {"k": null}]);
        }
        let value =
            json!({"apiServiceDefinitions": {"owned": [{"specDescriptors": [{"value": deep}]}]}});
        assert!(agrees("olm.csv.metadata", &value));
    }

    /// Every known property of the corpus's catalogs: where `fits` answers, the
    /// exact decoder agrees; and on these valid catalogs it answers for nearly all.
    #[test]
    fn corpus_properties_agree() {
        let Some(catalogs) = crate::catalog::corpus_catalogs() else {
            return;
        };
        let (mut checked, mut fitted) = (0, 0);
        for catalog in &catalogs {
            for bundle in &catalog.bundles {
                for property in &*bundle.item.properties {
                    let (Some(known), Some(text)) = (known(&property.kind), property.stored_text())
                    else {
                        continue;
                    };
                    let fits = fits(&known, &text);
                    assert!(!fits || parse(std::slice::from_ref(property)).is_ok());
                    checked += 1;
                    fitted += usize::from(fits);
                }
            }
        }
        eprintln!("fits answered for {fitted} of {checked} known properties");
        assert!(checked > 0 && fitted == checked, "{fitted} of {checked}");
    }
}
