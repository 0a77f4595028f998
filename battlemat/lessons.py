"""Old path of battlemat.teach.tutor, kept only because battlemat/ui/lesson.py (owned by the window's
rewrite) still imports it from here. Delete this file once ui imports battlemat.teach.tutor."""

from battlemat.teach.tutor import Lesson, Pointer, Step, judge, pointers, unfinished

__all__ = ["Lesson", "Pointer", "Step", "judge", "pointers", "unfinished"]
