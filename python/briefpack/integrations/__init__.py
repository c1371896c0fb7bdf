"""Drop-ins for the frameworks RAG stacks are built on, and the chat APIs' message forms.

Each framework module imports its framework, so import the one you use; without the framework
it raises an ``ImportError`` that names the extra to install:

* ``briefpack.integrations.langchain``: ``BriefpackCompressor`` (a LangChain document
  compressor, transformer and runnable step), ``to_messages``, ``prompt_runnable``,
  ``to_documents``.
  ``pip install 'briefpack[langchain]'``
* ``briefpack.integrations.llamaindex``: ``BriefpackPostprocessor`` (a LlamaIndex node
  postprocessor, with parent and neighbour expansion over a docstore), ``to_nodes``.
  ``pip install 'briefpack[llamaindex]'``
* ``briefpack.integrations.haystack``: ``BriefpackPromptBuilder`` (a Haystack component that
  replaces ``LostInTheMiddleRanker`` plus a prompt builder). ``pip install 'briefpack[haystack]'``
* ``briefpack.integrations.chat`` (no dependency, re-exported here): ``to_openai``,
  ``to_openai_responses`` (the Responses API's ``input``), ``to_anthropic`` (with a
  prompt-cache breakpoint after the stable system prompt) and ``cache_report``.

The drop-ins raise ``briefpack.InputError`` for their own errors and log at DEBUG on the
``briefpack.integrations`` logger. Each request is reported once, as ``trace_summary``'s dict
(re-exported here): LangChain's custom event ``"briefpack"``, LlamaIndex's instrumentation
event ``BriefpackAssembled``, Haystack's span tag ``briefpack.summary``. See
``docs/integrations.md`` for an example of each.
"""

from __future__ import annotations

from ._trace import trace_summary
from .chat import CacheReport, cache_report, to_anthropic, to_openai, to_openai_responses

__all__ = [
    "CacheReport",
    "cache_report",
    "to_anthropic",
    "to_openai",
    "to_openai_responses",
    "trace_summary",
]
