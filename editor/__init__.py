"""The designer's workbench: a Streamlit app over `nexus_dsl.workbench` (it holds no rules of its own)."""
