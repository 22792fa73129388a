; Undoes register-filetype.nsh. Included into the CPack NSIS uninstall section.
; Values another program wrote under .safetensors are left alone.
DeleteRegKey SHCTX "Software\Classes\Tensorscope.safetensors"
DeleteRegKey SHCTX "Software\Classes\Applications\tensorscope.exe"
DeleteRegValue SHCTX "Software\Classes\.safetensors\OpenWithProgids" "Tensorscope.safetensors"
DeleteRegKey /ifempty SHCTX "Software\Classes\.safetensors\OpenWithProgids"
ReadRegStr $0 SHCTX "Software\Classes\.safetensors" ""
StrCmp $0 "Tensorscope.safetensors" 0 tensorscope_ext_foreign
  DeleteRegValue SHCTX "Software\Classes\.safetensors" ""
  DeleteRegValue SHCTX "Software\Classes\.safetensors" "Content Type"
tensorscope_ext_foreign:
DeleteRegKey /ifempty SHCTX "Software\Classes\.safetensors"
System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
