"""The features that teach, over io's file formats (DESIGN: teach): lessons judged step by step
(tutor) and written from a save (lesson_from), rule cases played and recorded (rule_cases), the
rules search and the glossary (rules_search, glossary), the generated rulings document (rulings)."""
