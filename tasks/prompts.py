"""How a question becomes chat messages, and a plain-text fallback for tokenizers that have
no chat template.

The instruction always states the answer format the rubric expects, so a model that follows
the prompt can score 1.0. Messages are plain ``{"role", "content"}`` dicts, ready for any
``tokenizer.apply_chat_template``.

>>> p = Prompt(instruction="End with the line '#### N'.", system="Be brief.")
>>> msgs = p.render("What is 2+3?", shots=[("What is 1+1?", "#### 2")])
>>> [m["role"] for m in msgs]
['system', 'user', 'assistant', 'user']
>>> print(render_plain(msgs))
System: Be brief.
<BLANKLINE>
User: What is 1+1?
<BLANKLINE>
End with the line '#### N'.
<BLANKLINE>
Assistant: #### 2
<BLANKLINE>
User: What is 2+3?
<BLANKLINE>
End with the line '#### N'.
<BLANKLINE>
Assistant:
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Message = dict[str, str]

_PLAIN_ROLES = {"system": "System", "user": "User", "assistant": "Assistant", "tool": "Tool"}


@dataclass(frozen=True)
class Prompt:
    """Renders a question into chat messages.

    Arguments:
        instruction: what to do and, always, the answer format (``"... '#### N'."``). It is
            joined to the question by ``template``; empty means the question alone.
        system: an optional system message.
        few_shot: how many solved examples precede the question (``Task`` picks them).
        template: how question and instruction form the user message.
    """

    instruction: str = ""
    system: str | None = None
    few_shot: int = 0
    template: str = "{question}\n\n{instruction}"

    def __post_init__(self) -> None:
        if type(self.few_shot) is not int or self.few_shot < 0:
            raise ValueError(f"few_shot must be an int >= 0, got {self.few_shot!r}")
        for key in ("{question}", "{instruction}"):
            if key not in self.template:
                raise ValueError(f"template must contain {key}, got {self.template!r}")

    def user_message(self, question: str) -> str:
        """The user turn for one question.

        >>> Prompt("Answer with '#### N'.", template="{question} {instruction}").user_message("1+1?")
        "1+1? Answer with '#### N'."
        """
        if not self.instruction:
            return question
        return self.template.format(question=question, instruction=self.instruction)

    def render(self, question: str, shots: Iterable[tuple[str, str]] = ()) -> tuple[Message, ...]:
        """System message (if any), then one user/assistant pair per shot, then the question."""
        messages: list[Message] = []
        if self.system:
            messages.append({"role": "system", "content": self.system})
        for shot_question, shot_answer in shots:
            messages.append({"role": "user", "content": self.user_message(shot_question)})
            messages.append({"role": "assistant", "content": shot_answer})
        messages.append({"role": "user", "content": self.user_message(question)})
        return tuple(messages)


def render_plain(messages: Sequence[Message], *, add_generation_prompt: bool = True) -> str:
    """Chat messages as plain text (``Role: content`` blocks separated by blank lines), for
    models whose tokenizer has no chat template. With ``add_generation_prompt`` the text ends
    with ``"Assistant:"`` so the model's continuation is the answer.

    >>> render_plain([{"role": "user", "content": "2+2?"}])
    'User: 2+2?\\n\\nAssistant:'
    """
    blocks = []
    for i, message in enumerate(messages):
        try:
            role, content = message["role"], message["content"]
        except (KeyError, TypeError):
            raise ValueError(
                f"messages[{i}] must be a dict with 'role' and 'content', got {message!r}"
            ) from None
        blocks.append(f"{_PLAIN_ROLES.get(role, role.capitalize())}: {content}")
    if add_generation_prompt:
        blocks.append("Assistant:")
    return "\n\n".join(blocks)
