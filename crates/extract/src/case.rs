//! serde's `rename_all` rules, exactly as serde_derive applies them: variants are read as
//! PascalCase and fields as snake_case, so the same rule gives different results on each.

/// A `rename_all` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    /// The rule named `name`, as serde spells it.
    pub(crate) fn from_name(name: &str) -> Option<RenameRule> {
        Some(match name {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebab,
            _ => return None,
        })
    }

    /// A variant name (PascalCase in Rust) under this rule.
    pub(crate) fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => {
                let mut chars = variant.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            RenameRule::Snake => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                snake
            }
            RenameRule::ScreamingSnake => {
                RenameRule::Snake.apply_to_variant(variant).to_ascii_uppercase()
            }
            RenameRule::Kebab => RenameRule::Snake.apply_to_variant(variant).replace('_', "-"),
            RenameRule::ScreamingKebab => {
                RenameRule::ScreamingSnake.apply_to_variant(variant).replace('_', "-")
            }
        }
    }

    /// A field name (snake_case in Rust) under this rule.
    pub(crate) fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            RenameRule::Camel => {
                let pascal = RenameRule::Pascal.apply_to_field(field);
                let mut chars = pascal.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RenameRule::*;

    #[test]
    fn variants_and_fields_differ_as_in_serde() {
        assert_eq!(Snake.apply_to_variant("VeryTasty"), "very_tasty");
        assert_eq!(ScreamingKebab.apply_to_variant("VeryTasty"), "VERY-TASTY");
        assert_eq!(Camel.apply_to_variant("VeryTasty"), "veryTasty");
        assert_eq!(Lower.apply_to_variant("VeryTasty"), "verytasty");
        assert_eq!(Camel.apply_to_field("very_tasty"), "veryTasty");
        assert_eq!(Pascal.apply_to_field("very_tasty"), "VeryTasty");
        assert_eq!(ScreamingKebab.apply_to_field("very_tasty"), "VERY-TASTY");
        assert_eq!(Lower.apply_to_field("very_tasty"), "very_tasty");
        // serde's snake rule splits at every capital: an acronym becomes letters.
        assert_eq!(Snake.apply_to_variant("HTTPStatus"), "h_t_t_p_status");
    }
}
