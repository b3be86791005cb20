"""An OpenAI-compatible server over the embedded engines (``pagereader serve-engine``)."""
