<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="battlemat" tilewidth="32" tileheight="32" tilecount="48" columns="8">
 <image source="../assets/tiles/battlemat.png" width="256" height="192"/>
 <tile id="0" type="floor"/>
 <tile id="1" type="marble"/>
 <tile id="2" type="marble"/>
 <tile id="3" type="balcony"/>
 <tile id="4" type="floor"/>
 <tile id="5" type="grass"/>
 <tile id="6" type="grass"/>
 <tile id="7" type="dirt"/>
 <tile id="8" type="dirt"/>
 <tile id="9" type="dirt"/>
 <tile id="10" type="ridge"/>
 <tile id="11" type="water"/>
 <tile id="12" type="shallows"/>
 <tile id="13" type="chasm"/>
 <tile id="14" type="wall"/>
 <tile id="15" type="pit"/>
 <tile id="16" type="trap"/>
 <tile id="17" type="bridge"/>
 <tile id="18" type="bridge"/>
 <tile id="19" type="stairs"/>
 <tile id="20" type="stairs">
  <properties>
   <property name="difficult_dirs" propertytype="Direction" value="E"/>
  </properties>
 </tile>
 <tile id="21" type="stairs">
  <properties>
   <property name="difficult_dirs" propertytype="Direction" value="S"/>
  </properties>
 </tile>
 <tile id="22" type="stairs">
  <properties>
   <property name="difficult_dirs" propertytype="Direction" value="W"/>
  </properties>
 </tile>
 <tile id="23" type="pillar"/>
 <tile id="24" type="statue"/>
 <tile id="25" type="pedestal"/>
 <tile id="26" type="railing"/>
 <tile id="27" type="railing"/>
 <tile id="28" type="statue"/>
 <tile id="29" type="statue"/>
 <tile id="30" type="statue"/>
 <tile id="31" type="statue"/>
 <tile id="32" type="rubble"/>
 <tile id="33" type="underbrush"/>
 <tile id="34" type="tree"/>
 <tile id="35" type="tree"/>
 <tile id="36" type="boulder"/>
 <tile id="37" type="boulder"/>
 <tile id="38" type="boulder"/>
 <tile id="39" type="boulder"/>
 <tile id="40" type="boulder"/>
 <tile id="41" type="log"/>
 <tile id="42" type="ridge"/>
 <tile id="43" type="slope"/>
 <tile id="44" type="slope">
  <properties>
   <property name="difficult_dirs" propertytype="Direction" value="E"/>
  </properties>
 </tile>
 <tile id="45" type="slope">
  <properties>
   <property name="difficult_dirs" propertytype="Direction" value="S"/>
  </properties>
 </tile>
 <tile id="46" type="slope">
  <properties>
   <property name="difficult_dirs" propertytype="Direction" value="W"/>
  </properties>
 </tile>
</tileset>
